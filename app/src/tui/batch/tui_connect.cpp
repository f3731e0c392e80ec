// The Nodes pane's connect: a form that says what will be done and asks for a tunnel and how
// long; Enter agrees. The user is added on the account's worker; then ssh gets the terminal and
// the TUI comes back when it ends.
#include <cstdlib>

#include <fmt/format.h>

#include "connect_action.hpp"
#include "core/sanitizer.hpp"
#include "node_connect.hpp"
#include "tui_batch.hpp"
#include "tui_services.hpp"

namespace trainyard {
namespace {

FieldError tunnel_field(const std::string& v) {
  if (v.empty()) return {};
  auto port = tunnel_port(v);
  return port ? FieldError() : FieldError("a port from 1 to 65535, or empty");
}

FieldError hours_field(const std::string& v) {
  auto h = whole_number(v);
  return h && *h >= 1 && *h <= 168 ? FieldError() : FieldError("1 to 168 hours");
}

// `~/.ssh/id_ed25519.pub`: the path as the user thinks of it.
std::string shown_path(const std::string& path) {
  const auto home = home_dir() + "/";
  return path.rfind(home, 0) == 0 ? "~/" + path.substr(home.size()) : path;
}

// After the user is added: ssh in the terminal, then what it ended with.
void run_ssh(TuiState& st, const azure::RemoteLogin& at, const std::string& user,
             std::optional<int> tunnel, const std::string& node) {
  if (!st.services || !st.services->run_in_terminal) return;
  auto code = st.services->run_in_terminal(ssh_command(ssh_program(), at, user, tunnel));
  auto line = code ? fmt::format("ssh to node {} ended (exit {})", node, *code)
                   : "ssh: " + code.error().message;
  // After the action's own outcome, which its worker posted first.
  st.work.events.post(StatusMessage{sanitize_text(line), !code || *code != 0, "connect"});
}

void start_connect(AppContext& ctx, TuiState& st, const std::string& pool, const std::string& node,
                   const PublicKey& key, const Form& form) {
  std::optional<int> tunnel;
  if (!form.value("Tunnel").empty()) tunnel = *tunnel_port(form.value("Tunnel"));
  const int hours = whole_number(form.value("Hours")).value_or(8);
  azure::NodeUser user{connect_user_name(local_login()), key.text,
                       ctx.clock.now() + std::chrono::hours(hours)};
  auto at = std::make_shared<azure::RemoteLogin>();
  queue_action(ctx, st, act::connect_node(pool, node, user, at),
               [&st, at, name = user.name, tunnel, node](const Result<std::string>& r) {
                 if (r) run_ssh(st, *at, name, tunnel, node);
               });
}

}  // namespace

void open_connect_form(AppContext& ctx, TuiState& st, const std::string& pool,
                       const std::string& node) {
  if (!account_writable(ctx, st)) return;
  auto key = find_ssh_public_key(home_dir());
  if (!key) return set_status(st, sanitize_text(key.error().message), StatusLevel::Error);
  Form f;
  f.title = "Connect to node " + node;
  f.add("Tunnel", "", "local port to forward there, e.g. 6006 (TensorBoard)", tunnel_field);
  f.add("Hours", "8", "until the user expires", hours_field);
  f.note = {
      fmt::format("Adds user {} to the node with your SSH key", connect_user_name(local_login())),
      shown_path(key->path), "(no password), then runs ssh here. Enter agrees."};
  open_form(st, std::move(f), [&ctx, &st, pool, node, k = *key](const Form& form) {
    start_connect(ctx, st, pool, node, k, form);
  });
}

}  // namespace trainyard
