// `trainyard node connect --account A POOL NODE [--tunnel PORT] [--hours H] [--key FILE]
// [--yes]`: a temporary user with the SSH public key on the node, then ssh there.
#include <unistd.h>

#include <cstdlib>
#include <iostream>
#include <memory>

#include <fmt/format.h>

#include "action_util.hpp"
#include "cmd_node_connect.hpp"
#include "connect_action.hpp"
#include "core/child_process.hpp"
#include "core/sanitizer.hpp"
#include "local/task_environment.hpp"
#include "node_connect.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

struct ConnectFlags {
  std::string account, pool, node, key, tunnel;
  int hours = 8;
  bool yes = false;
};

// What the user agrees to: the account made, for how long, with which key; Enter alone is No.
Result<void> agree(const std::string& question, bool yes) {
  if (yes) return {};
  const Error refused = make_error(ErrorKind::Usage, "not confirmed (pass --yes, or answer y)");
  if (!::isatty(STDIN_FILENO)) return refused;
  out::text(stderr, sanitize_text(question) + " [y/N] ");
  std::string line;
  if (!std::getline(std::cin, line) || (line != "y" && line != "yes")) return refused;
  return {};
}

// Everything checked before anything is sent: the port, the key and the expiry.
struct ConnectPlan {
  std::optional<int> tunnel;
  PublicKey key;
  azure::NodeUser user;
};

Result<ConnectPlan> plan_of(const ConnectFlags& f, const Clock& clock) {
  ConnectPlan p;
  if (!f.tunnel.empty()) {
    auto port = tunnel_port(f.tunnel);
    if (!port) return port.error();
    p.tunnel = *port;
  }
  if (f.hours < 1 || f.hours > 24 * 7)
    return make_error(ErrorKind::Usage, fmt::format("--hours: 1 to 168, not {}", f.hours));
  auto key = f.key.empty() ? find_ssh_public_key(home_dir()) : read_ssh_public_key(f.key);
  if (!key) return key.error();
  p.key = *key;
  p.user = {connect_user_name(local_login()), key->text, clock.now() + std::chrono::hours(f.hours)};
  return p;
}

int node_connect(const CliState& st, const ConnectFlags& f) {
  SystemClock clock;
  auto plan = plan_of(f, clock);
  if (!plan) return report_failure("node connect", plan.error());
  auto question = fmt::format("Add user {} to node {}/{} until {} with the SSH key {}, then ssh?",
                              plan->user.name, f.pool, f.node, format_iso8601(plan->user.expiry),
                              plan->key.path);
  if (auto ok = agree(question, f.yes); !ok) return report_failure("node connect", ok.error());
  auto session = open_action(st, f.account, "node connect", ActionKind::Change);
  if (!session) return report_failure("node connect", session.error());
  auto at = std::make_shared<azure::RemoteLogin>();
  auto action = act::connect_node(f.pool, f.node, plan->user, at);
  if (auto ok = run_in_session(*session, action); !ok)
    return report_failure(action.what, ok.error());
  auto argv = ssh_command(ssh_program(), *at, plan->user.name, plan->tunnel);
  auto env = scrub_environment(current_environment(), session->ctx->engine.secret_variables);
  auto code = run_foreground(argv, env);
  if (!code) return report_failure("node connect", code.error());
  return *code;
}

}  // namespace

void register_node_connect(CLI::App* node, CliState& st) {
  auto f = std::make_shared<ConnectFlags>();
  auto* cmd = node->add_subcommand(
      "connect", "Add a temporary user with your SSH key to a node, then ssh there");
  add_account_option(cmd, f->account);
  cmd->add_option("pool", f->pool, "Pool id")->required();
  cmd->add_option("node", f->node, "Node id")->required();
  cmd->add_option("--tunnel", f->tunnel,
                  "Forward this local port to the node's (6006: TensorBoard)");
  cmd->add_option("--hours", f->hours, "Hours until the user expires (default 8)");
  cmd->add_option("--key", f->key, "SSH public key file (default ~/.ssh/id_ed25519.pub, …)");
  cmd->add_flag("--yes", f->yes, "Do not ask");
  cmd->callback([&st, f] { st.action = [&st, f] { return node_connect(st, *f); }; });
}

}  // namespace trainyard
