// `trainyard pool create|resize|stop-resize|autoscale|delete|images`: Batch pool actions.
#include <algorithm>
#include <memory>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "azure/pool_spec.hpp"
#include "commands.hpp"
#include "core/sanitizer.hpp"
#include "output.hpp"
#include "text_table.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

struct PoolFlags {
  std::string account, pool, json_file, id, vm_size, image, custom_image, node_agent_sku;
  std::string start_task, formula, interval, timeout;
  int dedicated = -1, spot = -1, task_slots = -1;  // -1: not given
  bool yes = false;
};

std::optional<int> given(int v) {
  return v >= 0 ? std::optional<int>(v) : std::nullopt;
}

Result<std::optional<Duration>> optional_duration(const std::string& text, const char* flag) {
  if (text.empty()) return std::optional<Duration>();
  auto d = parse_human_duration(text);
  if (!d) return make_error(ErrorKind::Usage, fmt::format("{}: {}", flag, d.error().message));
  return std::optional<Duration>(*d);
}

Result<void> check_pool_flags(const PoolFlags& f) {
  const bool shaped = !f.id.empty() || !f.vm_size.empty() || !f.image.empty() ||
                      !f.custom_image.empty() || !f.node_agent_sku.empty();
  if (!f.json_file.empty() && shaped)
    return make_error(ErrorKind::Usage,
                      "--json holds the whole pool: drop --id, --vm-size, "
                      "--image, --custom-image and --node-agent-sku");
  if (!f.json_file.empty()) return {};
  if (f.id.empty() || f.vm_size.empty())
    return make_error(ErrorKind::Usage, "pool create needs --json FILE, or --id and --vm-size");
  if (f.image.empty() == f.custom_image.empty())
    return make_error(ErrorKind::Usage, "pool create needs one of --image or --custom-image");
  // supportedimages lists marketplace images only: theirs is looked up when left out.
  if (!f.custom_image.empty() && f.node_agent_sku.empty())
    return make_error(ErrorKind::Usage,
                      "pool create --custom-image needs --node-agent-sku (see pool images)");
  return {};
}

Result<json> pool_from_file(const std::string& path) {
  auto body = read_json_file(path);
  if (!body) return body.error();
  if (auto id = act::request_id(*body, "pool"); !id)
    return make_error(ErrorKind::Usage, path + ": " + id.error().message);
  return body;
}

Result<json> pool_body(const PoolFlags& f) {
  TY_TRY(check_pool_flags(f));
  if (!f.json_file.empty()) return pool_from_file(f.json_file);
  azure::PoolSpec spec{f.id,           f.vm_size,           f.image,
                       f.custom_image, f.node_agent_sku,    given(f.dedicated),
                       given(f.spot),  given(f.task_slots), f.start_task};
  return act::pool_request(spec);
}

int pool_create(const CliState& st, const PoolFlags& f) {
  // The body is checked before the account is opened: bad input sends nothing.
  auto body = pool_body(f);
  if (!body) return report_failure("pool create", body.error());
  return run_catalogued(st, f.account, "pool create", act::create_pool(*body));
}

int pool_resize(const CliState& st, const PoolFlags& f) {
  auto timeout = optional_duration(f.timeout, "--timeout");
  if (!timeout) return report_failure("pool resize", timeout.error());
  return run_catalogued(st, f.account, "pool resize",
                        act::resize_pool(f.pool, given(f.dedicated), given(f.spot), *timeout));
}

int pool_stop_resize(const CliState& st, const PoolFlags& f) {
  return run_catalogued(st, f.account, "pool stop-resize", act::stop_resize_pool(f.pool));
}

int autoscale_enable(const CliState& st, const PoolFlags& f) {
  auto interval = optional_duration(f.interval, "--interval");
  if (!interval) return report_failure("pool autoscale enable", interval.error());
  return run_catalogued(st, f.account, "pool autoscale enable",
                        act::enable_autoscale(f.pool, f.formula, *interval));
}

int autoscale_disable(const CliState& st, const PoolFlags& f) {
  return run_catalogued(st, f.account, "pool autoscale disable", act::disable_autoscale(f.pool));
}

int autoscale_eval(const CliState& st, const PoolFlags& f) {
  auto eval = std::make_shared<azure::AutoScaleEvaluation>();
  const auto action = act::evaluate_autoscale(f.pool, f.formula, eval);
  return run_action(
      st, f.account, {"pool autoscale eval", action.what, ActionKind::Read},
      [&](ActionSession& s) -> Result<void> {
        ActionEnv env{*s.client, *s.ctx->store, s.ctx->clock};
        auto r = action.run(env);
        if (!r) return r.error();
        return {};
      },
      [&](ActionSession&) {
        for (const auto& line : sanitize_lines(eval->text())) out::line(stdout, line.text);
        // A formula that does not evaluate is a failure for scripts, though the call worked.
        return eval->error.empty() ? kExitOk : kExitFailure;
      });
}

int pool_delete(const CliState& st, const PoolFlags& f) {
  const auto action = act::delete_pool(f.pool);
  return run_action(
      st, f.account, {"pool delete", action.what},
      [&](ActionSession& s) -> Result<void> {
        TY_TRY(confirm_typed("deleting pool " + f.pool, f.pool, f.yes));
        return run_in_session(s, action);
      },
      [](ActionSession&) { return kExitOk; });
}

std::string end_of_support(const azure::SupportedImage& i, Timestamp now) {
  if (!i.batch_support_end_of_life) return "-";
  std::string day = format_iso8601(*i.batch_support_end_of_life).substr(0, 10);
  return i.past_end_of_life(now) ? day + " (ended)" : day;
}

int pool_images(const CliState& st, const PoolFlags& f) {
  std::vector<azure::SupportedImage> images;
  return run_action(
      st, f.account, {"pool images", "list supported images", ActionKind::Read},
      [&](ActionSession& s) -> Result<void> {
        auto r = azure::supported_images(*s.client);
        if (!r) return r.error();
        images = std::move(*r);
        return {};
      },
      [&](ActionSession& s) {
        TextTable table({"NODE AGENT SKU", "IMAGE (--image)", "OS", "VERIFIED", "END OF SUPPORT"});
        for (const auto& i : images) {
          auto image = fmt::format("{}:{}:{}:{}", i.publisher, i.offer, i.sku, i.version);
          table.add({sanitize_text(i.node_agent_sku_id), sanitize_text(image),
                     sanitize_text(i.os_type), sanitize_text(i.verification_type),
                     end_of_support(i, s.ctx->clock.now())});
        }
        table.print(stdout);
        return kExitOk;
      });
}

CLI::App* leaf(CLI::App* parent, CliState& st, const std::shared_ptr<PoolFlags>& f,
               const char* name, const char* help, FlagsRunner<PoolFlags> run) {
  auto* cmd = parent->add_subcommand(name, help);
  add_account_option(cmd, f->account);
  cmd->callback([&st, f, run] { st.action = [&st, f, run] { return run(st, *f); }; });
  return cmd;
}

void add_pool_arg(CLI::App* cmd, PoolFlags& f) {
  cmd->add_option("pool", f.pool, "Pool id")->required();
}

void register_create(CLI::App* pool, CliState& st, const std::shared_ptr<PoolFlags>& f) {
  auto* c = leaf(pool, st, f, "create", "Create a pool (--json FILE, or --id, --vm-size, image)",
                 pool_create);
  c->add_option("--json", f->json_file, "The pool as Batch REST JSON (wire names)");
  c->add_option("--id", f->id, "Pool id");
  c->add_option("--vm-size", f->vm_size, "VM size, e.g. Standard_NC24ads_A100_v4");
  c->add_option("--image", f->image, "Marketplace image publisher:offer:sku[:version]");
  c->add_option("--custom-image", f->custom_image, "Custom image resource id");
  c->add_option("--node-agent-sku", f->node_agent_sku, "Node agent SKU (see pool images)");
  c->add_option("--dedicated", f->dedicated, "Dedicated nodes")->check(CLI::NonNegativeNumber);
  c->add_option("--spot", f->spot, "Spot (low-priority) nodes")->check(CLI::NonNegativeNumber);
  c->add_option("--task-slots", f->task_slots, "Task slots per node")->check(CLI::PositiveNumber);
  c->add_option("--start-task", f->start_task, "Start task command line (waits for success)");
}

void register_autoscale(CLI::App* pool, CliState& st, const std::shared_ptr<PoolFlags>& f) {
  auto* as = pool->add_subcommand("autoscale", "Autoscale: enable, disable, eval");
  as->require_subcommand(1);
  auto* en = leaf(as, st, f, "enable", "Enable autoscale with a formula", autoscale_enable);
  add_pool_arg(en, *f);
  en->add_option("--formula", f->formula, "Autoscale formula")->required();
  en->add_option("--interval", f->interval, "Evaluation interval (PT5M, 15m; default 15 min)");
  add_pool_arg(leaf(as, st, f, "disable", "Disable autoscale", autoscale_disable), *f);
  auto* ev = leaf(as, st, f, "eval", "Evaluate a formula without applying it", autoscale_eval);
  add_pool_arg(ev, *f);
  ev->add_option("--formula", f->formula, "Autoscale formula")->required();
}

}  // namespace

void register_pool(CLI::App& app, CliState& st) {
  auto f = std::make_shared<PoolFlags>();
  auto* pool = app.add_subcommand("pool", "Batch pools: create, resize, autoscale, delete, images");
  pool->require_subcommand(1);
  register_create(pool, st, f);
  auto* rs = leaf(pool, st, f, "resize", "Set a pool's node targets", pool_resize);
  add_pool_arg(rs, *f);
  rs->add_option("--dedicated", f->dedicated, "Dedicated nodes")->check(CLI::NonNegativeNumber);
  rs->add_option("--spot", f->spot, "Spot (low-priority) nodes")->check(CLI::NonNegativeNumber);
  rs->add_option("--timeout", f->timeout, "Resize timeout (default 15 min)");
  add_pool_arg(leaf(pool, st, f, "stop-resize", "Stop a resize", pool_stop_resize), *f);
  register_autoscale(pool, st, f);
  auto* del = leaf(pool, st, f, "delete", "Delete a pool (asks, unless --yes)", pool_delete);
  add_pool_arg(del, *f);
  del->add_flag("--yes", f->yes, "Do not ask");
  leaf(pool, st, f, "images", "Images and node agent SKUs the account supports", pool_images);
}

}  // namespace trainyard
