// `trainyard ls {accounts,pools,nodes,jobs,tasks}`.
#include <map>

#include <fmt/format.h>

#include "account_lookup.hpp"
#include "action_util.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "app/wire_json.hpp"
#include "commands.hpp"
#include "node_kind.hpp"
#include "output.hpp"
#include "sync/batch_sync.hpp"
#include "text_table.hpp"

namespace trainyard {
namespace {

struct LsOptions {
  std::string what, account = kLocalAccount, pool, job;
  bool json = false;
  bool offline = false;
};

// A Batch account's listing first refreshes what it lists; when the service cannot be reached,
// the cache is shown with a warning, so `ls` works offline. A refusal of the credentials is an
// error instead: an empty table would read as an empty account.
Result<void> refresh_batch_account(AppContext& ctx, const LsOptions& o) {
  if (o.offline || o.account == kLocalAccount || o.what == "accounts") return {};
  auto account = find_account(ctx.settings, o.account);
  if (!account) return {};
  auto client = open_batch_client(*account, ctx.clock);
  if (!client) return client.error();
  SyncScope scope{account->name, account->emulator ? AccountKind::Emulator : AccountKind::Batch,
                  account->endpoint, o.what == "tasks" ? o.job : ""};
  scope.pools = o.what == "pools" || o.what == "nodes";
  // The pool table's node counts are the pools' own (currentDedicatedNodes...): no node lists.
  scope.nodes = o.what == "nodes";
  scope.jobs = o.what == "jobs" || o.what == "tasks";
  scope.tasks = o.what == "tasks";
  auto synced = full_sync(*ctx.store, **client, scope);
  if (!synced && synced.error().kind == ErrorKind::Auth) return synced.error();
  if (!synced) {
    out::eprint("trainyard: {}: showing the cache, the refresh failed: {}", o.account,
                synced.error().message);
  }
  return {};
}

// `--json`: one array of entities in the Batch REST API's shapes.
template <typename T>
int print_json(const std::vector<T>& items, nlohmann::json (*to_wire)(const T&)) {
  nlohmann::json arr = nlohmann::json::array();
  for (const auto& item : items) arr.push_back(to_wire(item));
  // Command lines and log-derived text are bytes: invalid UTF-8 is written as U+FFFD.
  out::json(arr);
  return kExitOk;
}

std::string opt_time(const std::optional<Timestamp>& t) {
  return t ? format_iso8601(*t).substr(0, 19) + "Z" : "-";
}

std::string duration_of(const Task& t, const Clock& clock) {
  const auto& e = t.execution_info;
  if (!e.start_time) return "-";
  auto end = e.end_time.value_or(clock.now());
  return format_run_time(end - *e.start_time);
}

std::string exit_of(const Task& t) {
  if (t.execution_info.exit_code) return std::to_string(*t.execution_info.exit_code);
  return t.execution_info.failure_info ? t.execution_info.failure_info->code : "-";
}

// Why local tasks wait although they could start (NVML unreadable), by JOB/TASK.
std::map<std::string, std::string> waiting_reasons(AppContext& ctx, const std::string& account) {
  std::map<std::string, std::string> out;
  if (account != kLocalAccount) return out;
  if (auto runs = ctx.store->local_runs())
    for (const auto& r : *runs)
      if (!r.waiting_reason.empty()) out[r.job + "/" + r.task] = r.waiting_reason;
  return out;
}

int print_tasks(AppContext& ctx, const LsOptions& o) {
  TaskQuery q;
  q.account = o.account;
  q.job = o.job;
  auto tasks = ctx.store->tasks(q);
  if (!tasks) return report(tasks.error());
  if (o.json) {
    return print_json(*tasks, task_to_wire);
  }
  auto waiting = waiting_reasons(ctx, o.account);
  TextTable table({"JOB/TASK", "STATE", "EXIT", "RETRIES", "REQUEUES", "SLOTS", "STARTED", "RAN",
                   "WAITING", "COMMAND"});
  for (const auto& t : *tasks) {
    auto ref = t.job_id + "/" + t.id;
    auto why = waiting.find(ref);
    table.add({ref, std::string(task_state_text(t)), exit_of(t),
               std::to_string(t.execution_info.retry_count),
               std::to_string(t.execution_info.requeue_count), slots_text(t),
               opt_time(t.execution_info.start_time), duration_of(t, ctx.clock),
               why == waiting.end() ? "-" : why->second, t.command_line});
  }
  table.print(stdout);
  return kExitOk;
}

int print_jobs(AppContext& ctx, const LsOptions& o) {
  auto jobs = ctx.store->jobs(o.account);
  if (!jobs) return report(jobs.error());
  if (o.json) {
    return print_json(*jobs, job_to_wire);
  }
  // DONE and FAILED split the completed tasks as the TUI's Jobs pane does: DONE succeeded.
  TextTable table({"JOB", "STATE", "POOL", "ACTIVE", "RUNNING", "DONE", "FAILED", "CREATED"});
  for (const auto& j : *jobs) {
    auto counts = ctx.store->task_counts(o.account, j.id);
    auto failed = ctx.store->failed_task_count(o.account, j.id);
    auto n = [&](TaskState s) { return counts ? std::to_string((*counts)[s]) : "?"; };
    auto running =
        counts ? std::to_string((*counts)[TaskState::Running] + (*counts)[TaskState::Preparing])
               : "?";
    auto done = counts && failed ? std::to_string((*counts)[TaskState::Completed] - *failed) : "?";
    table.add({j.id, std::string(to_wire(j.state)), j.pool_id, n(TaskState::Active), running, done,
               failed ? std::to_string(*failed) : "?", opt_time(j.creation_time)});
  }
  table.print(stdout);
  return kExitOk;
}

int print_pools(AppContext& ctx, const LsOptions& o) {
  auto pools = ctx.store->pools(o.account);
  if (!pools) return report(pools.error());
  if (o.json) {
    return print_json(*pools, pool_to_wire);
  }
  // Nodes as current/target, dedicated and Spot (low-priority) apart.
  TextTable table({"POOL", "STATE", "ALLOCATION", "DEDICATED", "SPOT", "SLOTS/NODE", "VM SIZE"});
  for (const auto& p : *pools) {
    table.add({p.id, std::string(to_wire(p.state)), std::string(to_wire(p.allocation_state)),
               fmt::format("{}/{}", p.current_dedicated_nodes, p.target_dedicated_nodes),
               fmt::format("{}/{}", p.current_low_priority_nodes, p.target_low_priority_nodes),
               std::to_string(p.task_slots_per_node), p.vm_size});
  }
  table.print(stdout);
  return kExitOk;
}

// The nodes of `--pool`; without one, the local account's node or every pool's of a Batch account.
Result<std::vector<Node>> nodes_listed(AppContext& ctx, const LsOptions& o) {
  if (!o.pool.empty() || o.account == kLocalAccount)
    return nodes_as_shown(*ctx.store, o.account, o.pool.empty() ? std::string(kLocalPool) : o.pool);
  auto pools = ctx.store->pools(o.account);
  if (!pools) return pools.error();
  std::vector<Node> all;
  for (const auto& p : *pools) {
    auto nodes = ctx.store->nodes(o.account, p.id);
    if (!nodes) return nodes.error();
    all.insert(all.end(), nodes->begin(), nodes->end());
  }
  return all;
}

// Where the local node's slot count comes from (on stderr, under the table): one per GPU, or
// CPU slots from TRAINYARD_CPU_SLOTS, config.json or the default; and when the node record holds
// another count, that the next run here changes it.
void say_local_slots(AppContext& ctx, const std::vector<Node>& nodes) {
  Result<std::vector<GpuSlot>> gpus = std::vector<GpuSlot>{};
  if (ctx.engine.gpu_probe) gpus = ctx.engine.gpu_probe();
  int slots = gpus && !gpus->empty() ? static_cast<int>(gpus->size()) : ctx.engine.cpu_slots;
  std::string why = gpus && !gpus->empty()
                        ? fmt::format("one per GPU ({} found)", gpus->size())
                        : fmt::format("{} CPU slot(s), from {}", slots, ctx.cpu_slots_source);
  if (!gpus) why += fmt::format(" (GPUs could not be read: {})", gpus.error().message);
  std::string record;
  if (!nodes.empty() && nodes.front().task_slots != slots)
    record = fmt::format("; the node record says {}, and the next run started here sets {}",
                         nodes.front().task_slots, slots);
  out::eprint("slots here: {}{}", why, record);
}

int print_nodes(AppContext& ctx, const LsOptions& o) {
  auto nodes = nodes_listed(ctx, o);
  if (!nodes) return report(nodes.error());
  if (o.json) {
    return print_json(*nodes, node_to_wire);
  }
  TextTable table({"NODE", "POOL", "STATE", "KIND", "SCHEDULING", "SLOTS USED", "IP"});
  for (const auto& n : *nodes) {
    table.add({n.id, n.pool_id, std::string(to_wire(n.state)), node_kind(n),
               std::string(to_wire(n.scheduling_state)),
               fmt::format("{}/{}", n.running_task_slots_count, n.task_slots), n.ip_address});
  }
  table.print(stdout);
  if (o.account == kLocalAccount) say_local_slots(ctx, *nodes);
  return kExitOk;
}

int print_accounts(AppContext& ctx, const LsOptions& o) {
  auto accounts = ctx.store->accounts();
  if (!accounts) return report(accounts.error());
  if (o.json) {
    return print_json(*accounts, account_to_wire);
  }
  TextTable table({"ACCOUNT", "KIND", "ENDPOINT"});
  for (const auto& a : *accounts)
    table.add({a.name, to_string(a.kind), a.endpoint.empty() ? "-" : a.endpoint});
  table.print(stdout);
  return kExitOk;
}

int ls_command(const CliState& st, const LsOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  // Said where accounts are listed: `az batch` in the same shell would use the other account.
  if (auto clash = environment_account_clash((*ctx)->settings))
    out::eprint("trainyard: warning: {}", *clash);
  LocalEngine engine(*(*ctx)->store, (*ctx)->engine, (*ctx)->clock);
  // Listing also repairs: a run whose supervisor died is re-attached or marked failed.
  if (auto s = engine.schedule(); !s) return report(s.error());
  if (auto fresh = refresh_batch_account(**ctx, o); !fresh)
    return report_failure(o.account, fresh.error());
  if (o.what == "accounts") return print_accounts(**ctx, o);
  if (o.what == "pools") return print_pools(**ctx, o);
  if (o.what == "nodes") return print_nodes(**ctx, o);
  if (o.what == "jobs") return print_jobs(**ctx, o);
  return print_tasks(**ctx, o);
}

}  // namespace

void register_ls(CLI::App& app, CliState& st) {
  auto o = std::make_shared<LsOptions>();
  auto* cmd = app.add_subcommand("ls", "List accounts, pools, nodes, jobs or tasks");
  cmd->add_option("what", o->what, "accounts | pools | nodes | jobs | tasks")
      ->required()
      ->check(CLI::IsMember({"accounts", "pools", "nodes", "jobs", "tasks"}));
  cmd->add_option("--account", o->account, "Account (default 'local')");
  cmd->add_option("--pool", o->pool, "Pool (for nodes; default: every pool)");
  cmd->add_option("--job", o->job, "Job (for tasks; default: every job)");
  cmd->add_flag("--json", o->json, "One JSON array shaped as the Batch REST API shapes it");
  cmd->add_flag("--offline", o->offline, "Batch accounts: list the cache without refreshing it");
  cmd->callback([&st, o] { st.action = [&st, o] { return ls_command(st, *o); }; });
}

}  // namespace trainyard
