#include <algorithm>
#include <filesystem>
#include <set>
#include <sstream>

#include <fmt/format.h>

#include "gpu_id_list.hpp"
#include "instance_groups.hpp"
#include "job_completion.hpp"
#include "local/engine.hpp"
#include "local/process.hpp"
#include "local/task_environment.hpp"
#include "run_outcome.hpp"

namespace trainyard {

// Free capacity of the node during one scheduling pass.
struct LocalEngine::Placement {
  int free_slots = 0;
  std::vector<GpuSlot> gpus;  ///< empty on a CPU-only node
  std::set<int> used_gpus;
};

namespace {

// Picks GPUs for a task: its pinned ones if all are free, else the first free unbusy ones.
std::optional<std::vector<int>> pick_gpus(const std::vector<int>& pinned, int wanted,
                                          const std::vector<GpuSlot>& gpus,
                                          const std::set<int>& used) {
  if (!pinned.empty()) {
    for (int id : pinned) {
      if (used.count(id)) return std::nullopt;
    }
    return pinned;
  }
  std::vector<int> out;
  for (const auto& g : gpus) {
    if (static_cast<int>(out.size()) == wanted) break;
    // A GPU NVML gives no UUID for cannot be confined to: its task would wait.
    if (!used.count(g.index) && !g.foreign_busy && !g.uuid.empty()) out.push_back(g.index);
  }
  if (static_cast<int>(out.size()) < wanted) return std::nullopt;
  return out;
}

// The local tasks in `state` (at most `limit`; -1: all), along the state index.
Result<std::vector<Task>> tasks_in(Store& store, TaskState state, int64_t limit = -1) {
  TaskQuery q;
  q.account = kLocalAccount;
  q.state = state;
  q.limit = limit;
  return store.tasks(q);
}

// Neither the supervisor nor the task's leader lives: nobody will record how the run ended.
bool run_is_lost(const LocalRun& lr) {
  if (process_matches(static_cast<pid_t>(lr.supervisor_pid), lr.supervisor_start)) return false;
  return !(lr.pid > 0 && process_matches(static_cast<pid_t>(lr.pid), lr.start_ticks));
}

}  // namespace

LocalEngine::LocalEngine(Store& store, EngineConfig config, const Clock& clock)
    : store_(store), config_(std::move(config)), clock_(clock) {}

int LocalEngine::total_slots() const {
  return slots_for(probe_gpus());
}

Result<std::vector<GpuSlot>> LocalEngine::probe_gpus() const {
  if (!config_.gpu_probe) return std::vector<GpuSlot>{};
  return config_.gpu_probe();
}

int LocalEngine::slots_for(const Result<std::vector<GpuSlot>>& gpus) const {
  if (gpus) return gpus->empty() ? std::max(1, config_.cpu_slots) : static_cast<int>(gpus->size());
  // NVML unreadable: the node keeps the slots it had rather than turning into a CPU node.
  auto nodes = store_.nodes(kLocalAccount, kLocalPool);
  return nodes && !nodes->empty() ? nodes->front().task_slots : std::max(1, config_.cpu_slots);
}

Result<Node> LocalEngine::ensure_local_node() {
  return ensure_local_node(total_slots());
}

Result<Node> LocalEngine::ensure_local_node(int slots) {
  Account a{kLocalAccount, AccountKind::Local, ""};
  if (auto r = store_.upsert_account(a); !r) return r.error();
  auto pools = store_.pools(kLocalAccount);
  if (!pools) return pools.error();
  Pool pool;
  pool.account = kLocalAccount;
  pool.id = kLocalPool;
  pool.vm_size = "local";
  pool.current_dedicated_nodes = pool.target_dedicated_nodes = 1;
  pool.task_slots_per_node = slots;
  pool.creation_time = pools->empty() ? clock_.now() : pools->front().creation_time;
  if (auto r = store_.upsert_pool(pool); !r) return r.error();
  auto nodes = store_.nodes(kLocalAccount, kLocalPool);
  if (!nodes) return nodes.error();
  Node n = nodes->empty() ? Node{} : nodes->front();
  n.account = kLocalAccount;
  n.pool_id = kLocalPool;
  n.id = local_node_id();
  n.vm_size = "local";
  n.ip_address = "127.0.0.1";
  n.task_slots = pool.task_slots_per_node;
  if (!n.state_transition_time) n.state_transition_time = clock_.now();
  if (auto r = store_.upsert_node(n); !r) return r.error();
  return n;
}

Result<bool> LocalEngine::work_pending(int slots) {
  auto nodes = store_.nodes(kLocalAccount, kLocalPool);
  if (!nodes) return nodes.error();
  if (nodes->empty() || nodes->front().task_slots != slots) return true;
  // One queued task is enough to know: a seek on the state index, where counting every state
  // read all of a 100,000-task history on each idle pass.
  auto first_queued = tasks_in(store_, TaskState::Active, 1);
  if (!first_queued) return first_queued.error();
  if (!first_queued->empty()) return true;
  for (auto state : {TaskState::Preparing, TaskState::Running}) {
    auto tasks = tasks_in(store_, state);
    if (!tasks) return tasks.error();
    for (const auto& t : *tasks) {
      auto run = store_.local_run(t.job_id, t.id);
      if (!run) return run.error();
      if (!run->has_value() ||
          !process_matches(static_cast<pid_t>((*run)->supervisor_pid), (*run)->supervisor_start))
        return true;
    }
  }
  return false;
}

// Probing NVML and ending process groups take time, so both happen before the write lock is
// taken; the transaction then re-checks every run it acts on.
Result<int> LocalEngine::schedule() {
  auto gpus = probe_gpus();
  // Read first: an idle machine must not take the write lock (and fsync) on every poll.
  auto pending = work_pending(slots_for(gpus));
  if (!pending) return pending.error();
  if (!*pending) return 0;
  end_lost_groups();
  int started = 0;
  std::vector<LocalRun> lost;
  ended_runs_.clear();
  auto r = store_.write(
      [&]() -> Result<void> {
        lost.clear();
        if (auto e = ensure_local_node(slots_for(gpus)); !e) return e.error();
        if (auto rec = reconcile_locked(lost); !rec) return rec;
        auto s = start_ready_locked(gpus);
        if (!s) return s.error();
        started = *s;
        return ok_result();
      },
      Durability::Intent);
  discard_ended_environments(r.ok());
  if (!r) return r.error();
  // A run found lost only inside the transaction (its supervisor died meanwhile).
  for (const auto& lr : lost) end_orphaned_groups(lr);
  return started;
}

void LocalEngine::end_lost_groups() {
  for (auto state : {TaskState::Preparing, TaskState::Running}) {
    auto tasks = tasks_in(store_, state);
    if (!tasks) return;
    for (const auto& t : *tasks) {
      auto run = store_.local_run(t.job_id, t.id);
      if (run && run->has_value() && run_is_lost(**run)) end_orphaned_groups(**run);
    }
  }
}

Result<void> LocalEngine::reconcile_locked(std::vector<LocalRun>& lost) {
  for (auto state : {TaskState::Preparing, TaskState::Running}) {
    auto tasks = tasks_in(store_, state);
    if (!tasks) return tasks.error();
    for (auto& t : *tasks) {
      auto run = store_.local_run(t.job_id, t.id);
      if (!run) return run.error();
      if (!run->has_value()) {
        if (auto f = fail_locked(t, "RunRecordMissing", "the local run record is missing"); !f)
          return f;
        continue;
      }
      LocalRun& lr = **run;
      if (process_matches(static_cast<pid_t>(lr.supervisor_pid), lr.supervisor_start)) continue;
      if (!run_is_lost(lr)) {
        if (auto s = start_supervisor_locked(t, lr, true); !s) return s;
        continue;
      }
      if (auto e = record_lost_locked(t, lr); !e) return e;
      lost.push_back(lr);
    }
  }
  return ok_result();
}

// The outcome the supervisor left in the run directory when there is one (it died waiting for
// the store after the task ended), else SupervisorLost.
Result<void> LocalEngine::record_lost_locked(const Task& t, LocalRun lr) {
  auto msg = fmt::format("the supervisor (pid {}) ended before recording how the task ended",
                         lr.supervisor_pid);
  TY_TRY(record_orphaned_subtasks(store_, lr, clock_.now(), msg));
  auto dir = run_paths(config_.data_dir, t.job_id, t.id).dir;
  auto outcome = read_run_outcome(outcome_path(dir));
  if (!outcome || !outcome->has_value()) {
    if (!outcome) msg += fmt::format(" ({})", outcome.error().message);
    return fail_locked(t, "SupervisorLost", msg);
  }
  lr.supervisor_pid = 0;
  lr.supervisor_start = 0;
  TY_TRY(store_.upsert_local_run(lr));
  const Task done = completed_with(t, **outcome);
  TY_TRY(store_.upsert_task(done));
  return end_job_after_task(store_, done, lr.exit_conditions, clock_.now());
}

// NVML cannot be read: no task's GPUs could be confined, so nothing starts; each queued task says
// why (the reason `ls tasks` and the task view show).
Result<int> LocalEngine::hold_queued_locked(const std::string& why) {
  auto queued = tasks_in(store_, TaskState::Active);
  if (!queued) return queued.error();
  const std::string reason = fmt::format("NVML cannot be read ({}); GPU tasks wait for it", why);
  for (const auto& t : *queued) {
    auto run = store_.local_run(t.job_id, t.id);
    if (!run) return run.error();
    if (!run->has_value() || (*run)->waiting_reason == reason) continue;
    (*run)->waiting_reason = reason;
    if (auto u = store_.upsert_local_run(**run); !u) return u.error();
  }
  return 0;
}

Result<int> LocalEngine::start_ready_locked(const Result<std::vector<GpuSlot>>& gpus) {
  if (!gpus) return hold_queued_locked(gpus.error().message);
  Placement p;
  p.gpus = *gpus;
  p.free_slots = slots_for(gpus);
  for (auto state : {TaskState::Preparing, TaskState::Running}) {
    auto busy = tasks_in(store_, state);
    if (!busy) return busy.error();
    for (const auto& t : *busy) {
      p.free_slots -= slots_held(t);
      auto run = store_.local_run(t.job_id, t.id);
      if (run && run->has_value())
        for (int id : parse_gpu_ids((*run)->gpu_ids)) p.used_gpus.insert(id);
    }
  }
  auto queued = tasks_in(store_, TaskState::Active);
  if (!queued) return queued.error();
  int started = 0;
  for (auto& t : *queued) {
    auto ok = try_start_locked(t, p);
    if (!ok) return ok.error();
    started += *ok ? 1 : 0;
  }
  return started;
}

Result<bool> LocalEngine::try_start_locked(Task& t, Placement& p) {
  // A disabled job's tasks wait; a completed job's never start (a task's failure ended it).
  auto job = store_.job(kLocalAccount, t.job_id);
  if (!job) return job.error();
  if (*job && (*job)->state != JobState::Active) return false;
  bool waiting = false;
  auto failed = dependency_failure(t, waiting);
  if (!failed) return failed.error();
  if (failed->has_value()) {
    if (auto f = fail_locked(t, "TaskDependencyFailed", **failed); !f) return f.error();
    return false;
  }
  if (waiting || slots_held(t) > p.free_slots) return false;
  auto run = store_.local_run(t.job_id, t.id);
  if (!run) return run.error();
  if (!run->has_value()) {
    if (auto f = fail_locked(t, "RunRecordMissing", "the local run record is missing"); !f)
      return f.error();
    return false;
  }
  LocalRun lr = **run;
  if (!p.gpus.empty()) {
    auto picked = pick_gpus(parse_gpu_ids(lr.pinned_gpu_ids), slots_held(t), p.gpus, p.used_gpus);
    if (!picked) return false;
    lr.gpu_ids = format_gpu_ids(*picked);
    p.used_gpus.insert(picked->begin(), picked->end());
  }
  p.free_slots -= slots_held(t);
  if (auto s = start_supervisor_locked(t, lr, false); !s) return s.error();
  return true;
}

Result<std::optional<std::string>> LocalEngine::dependency_failure(const Task& t, bool& waiting) {
  for (const auto& dep : t.depends_on.task_ids) {
    auto slash = dep.find('/');
    std::string job = slash == std::string::npos ? t.job_id : dep.substr(0, slash);
    std::string id = slash == std::string::npos ? dep : dep.substr(slash + 1);
    auto d = store_.task(kLocalAccount, job, id);
    if (!d) return d.error();
    if (!d->has_value())
      return std::optional<std::string>(fmt::format("dependency {}/{} does not exist", job, id));
    const Task& dt = **d;
    if (dt.state != TaskState::Completed) {
      waiting = true;
      continue;
    }
    if (dt.execution_info.result != TaskResult::Success)
      return std::optional<std::string>(fmt::format("dependency {}/{} failed", job, id));
  }
  return std::optional<std::string>();
}

Result<void> LocalEngine::start_supervisor_locked(Task& t, LocalRun& run, bool adopt) {
  std::vector<std::string> args{"--data-dir", config_.data_dir, "__supervise", "--job",
                                t.job_id,     "--task",         t.id};
  if (adopt) args.push_back("--adopt");
  // A task can read its supervisor's /proc/<pid>/environ: it gets no secret either.
  auto child = spawn_detached(config_.trainyard_exe, args,
                              scrub_environment(current_environment(), config_.secret_variables));
  if (!child) return fail_locked(t, "SupervisorStartFailed", child.error().message);
  children_.push_back(child->pid);
  run.waiting_reason.clear();
  run.supervisor_pid = child->pid;
  run.supervisor_start = child->start_ticks;
  if (auto r = store_.upsert_local_run(run); !r) return r;
  if (adopt) return ok_result();
  t.previous_state = t.state;
  t.state = TaskState::Preparing;
  t.state_transition_time = clock_.now();
  t.node_info = TaskNodeInfo{kLocalPool, local_node_id(), run.run_dir};
  return store_.upsert_task(t);
}

Result<void> LocalEngine::fail_locked(Task t, const std::string& code, const std::string& message) {
  auto now = clock_.now();
  t.previous_state = t.state;
  t.state = TaskState::Completed;
  t.state_transition_time = now;
  t.execution_info.end_time = now;
  t.execution_info.result = TaskResult::Failure;
  t.execution_info.failure_info = FailureInfo{ErrorCategory::UserError, code, message};
  ended_runs_.push_back(run_paths(config_.data_dir, t.job_id, t.id).environment);
  TY_TRY(store_.upsert_task(t));
  auto run = store_.local_run(t.job_id, t.id);
  if (!run) return run.error();
  return end_job_after_task(store_, t, *run ? (*run)->exit_conditions : "", now);
}

void LocalEngine::discard_ended_environments(bool committed) {
  // Only once the end is stored: a rolled-back end leaves a task that still needs its file.
  for (const auto& path : committed ? ended_runs_ : std::vector<std::string>{}) {
    std::error_code ec;
    std::filesystem::remove(path, ec);
  }
  ended_runs_.clear();
}

void fill_local_node_counts(Store& store, Node& node) {
  int tasks = 0, slots = 0;
  for (auto state : {TaskState::Preparing, TaskState::Running}) {
    auto live = tasks_in(store, state);
    if (!live) return;
    tasks += static_cast<int>(live->size());
    for (const auto& t : *live) slots += slots_held(t);
  }
  node.running_tasks_count = tasks;
  node.running_task_slots_count = slots;
  node.state = slots > 0 ? NodeState::Running : NodeState::Idle;
}

Result<std::vector<Node>> nodes_as_shown(Store& store, const std::string& account,
                                         const std::string& pool) {
  auto nodes = store.nodes(account, pool);
  if (nodes && account == kLocalAccount)
    for (auto& n : *nodes) fill_local_node_counts(store, n);
  return nodes;
}

}  // namespace trainyard
