// Scheduling tasks onto free slots of virtual nodes, and following their runs in the engine.
#include <strings.h>

#include <filesystem>

#include <fmt/format.h>

#include "account.hpp"
#include "batch_env.hpp"
#include "local/exit_conditions.hpp"
#include "runner.hpp"
#include "sandbox.hpp"

namespace trainyard::emu {

namespace {

bool schedulable(const NodeEntity& n) {
  return !n.leaving && n.scheduling_enabled &&
         (n.state == NodeState::Idle || n.state == NodeState::Running);
}

int64_t int_id(const std::string& s) {
  if (s.empty() || s.size() > 18 || s.find_first_not_of("0123456789") != std::string::npos)
    return -1;
  return std::stoll(s);
}

bool succeeded(const TaskEntity& t) {
  return t.state == TaskState::Completed && t.exec.result == TaskResult::Success;
}

std::string subtask_engine_id(const TaskEntity& t, int instance) {
  return engine_id(instance ? fmt::format("{}-i{}", t.id, instance) : t.id, t.engine_generation);
}

}  // namespace

void Account::tick() {
  std::unique_lock lock(mu_);
  if (runner_) runner_->pump();
  tick_pools();
  tick_nodes();
  // Runs change only when a supervisor writes the engine store: read them only then.
  if (const int64_t version = runner_ ? runner_->data_version() : -1; version != engine_version_) {
    engine_version_ = version;
    collect_start_tasks();
    collect_prep_release();
    collect_runs();
  }
  apply_moved_files();
  tick_jobs();
  schedule_tasks();
}

bool Account::dependencies_met(const JobEntity& j, const TaskEntity& t, bool& blocked) const {
  blocked = false;
  if (!t.extra || !t.extra->contains("dependsOn")) return true;
  const auto& d = (*t.extra)["dependsOn"];
  auto check = [&](const TaskEntity& dep) {
    if (dep.state != TaskState::Completed) return false;
    if (!succeeded(dep)) blocked = true;  // dependencyAction `block`, the default
    return true;
  };
  for (const auto& id : d.value("taskIds", nlohmann::json::array())) {
    auto it = id.is_string() ? j.tasks.find(id.get<std::string>()) : j.tasks.end();
    if (it == j.tasks.end() || !check(it->second)) return false;
  }
  for (const auto& r : d.value("taskIdRanges", nlohmann::json::array())) {
    int64_t lo = r.value("start", 0), hi = r.value("end", -1);
    for (const auto& [id, dep] : j.tasks) {
      int64_t n = int_id(id);
      if (n >= lo && n <= hi && !check(dep)) return false;
    }
  }
  return !blocked;
}

std::vector<NodeEntity*> Account::place(const JobEntity& j, const TaskEntity& t, int instances) {
  std::vector<NodeEntity*> chosen;
  const auto& pool = pools_.at(j.pool_id);
  const bool pack = pool.spec.value("taskSchedulingPolicy", nlohmann::json::object())
                        .value("nodeFillType", "spread") == "pack";
  std::vector<NodeEntity*> candidates;
  for (auto& [id, n] : nodes_) {
    if (n.pool_id != j.pool_id || !schedulable(n) || free_slots(n) < t.required_slots) continue;
    if (j.spec.contains("jobPreparationTask")) {
      auto pr = j.nodes.find(n.id);
      if (pr == j.nodes.end() || pr->second.prep_running) continue;
      bool waits = j.spec["jobPreparationTask"].value("waitForSuccess", true);
      if (waits && pr->second.prep.result == TaskResult::Failure) continue;
    }
    candidates.push_back(&n);
  }
  std::stable_sort(candidates.begin(), candidates.end(), [&](NodeEntity* a, NodeEntity* b) {
    return pack ? a->running_slots > b->running_slots : a->running_slots < b->running_slots;
  });
  for (auto* n : candidates) {
    if (static_cast<int>(chosen.size()) == instances) break;
    chosen.push_back(n);
  }
  if (static_cast<int>(chosen.size()) < instances) chosen.clear();
  return chosen;
}

void Account::schedule_tasks() {
  for (auto& [jid, j] : jobs_) {
    if (j.state != JobState::Active || j.pending.empty()) continue;
    auto pool = pools_.find(j.pool_id);
    if (pool == pools_.end() || pool->second.state != PoolState::Active) continue;
    if (j.spec.contains("jobPreparationTask")) {
      for (auto& [nid, n] : nodes_) {
        if (n.pool_id == j.pool_id && schedulable(n) && !j.nodes.count(nid))
          run_job_preparation(j, n);
      }
    }
    const int max_parallel = j.spec.value("maxParallelTasks", -1);
    std::vector<std::string> started;
    for (const auto& tid : j.pending) {
      if (max_parallel >= 0 && static_cast<int>(j.running.size() + started.size()) >= max_parallel)
        break;
      auto& t = j.tasks.at(tid);
      bool blocked = false;
      if (!dependencies_met(j, t, blocked)) continue;
      int instances = t.extra && t.extra->contains("multiInstanceSettings")
                          ? (*t.extra)["multiInstanceSettings"].value("numberOfInstances", 1)
                          : 1;
      auto nodes = place(j, t, instances);
      if (nodes.empty()) continue;
      t.subtasks.clear();
      if (instances > 1 || (t.extra && t.extra->contains("multiInstanceSettings"))) {
        for (int i = 0; i < instances; ++i)
          t.subtasks.push_back(Subtask{i, nodes[i]->id, TaskState::Preparing, now(), {}});
      }
      start_on_node(j, t, *nodes[0]);
      for (size_t i = 1; i < nodes.size(); ++i) {
        nodes[i]->running_slots += t.required_slots;
        nodes[i]->running_tasks += 1;
      }
      started.push_back(tid);
    }
    for (const auto& tid : started) {
      j.pending.erase(tid);
      j.running.insert(tid);
    }
  }
}

void Account::start_on_node(JobEntity& j, TaskEntity& t, NodeEntity& n) {
  t.node_id = n.id;
  t.pool_id = n.pool_id;
  t.exec.start = now();
  t.exec.end = 0;
  t.exec.exit_code.reset();
  t.exec.result = TaskResult::None;
  t.exec.failure_code.clear();
  t.exec.failure_message.clear();
  t.exec.failure_details.clear();
  t.moving_files = false;
  set_task_state(t, TaskState::Preparing);
  n.running_slots += t.required_slots;
  n.running_tasks += 1;
  n.total_tasks_run += 1;
  n.recent.emplace_back(j.id, t.id);
  if (n.recent.size() > 10) n.recent.erase(n.recent.begin());
  if (!runner_ || download_inputs(j, t)) return;
  launch_instances(j, t);
}

void Account::launch_instances(JobEntity& j, TaskEntity& t) {
  NodeEntity& n = nodes_.at(t.node_id);
  const auto* mi = t.extra && t.extra->contains("multiInstanceSettings")
                       ? &(*t.extra)["multiInstanceSettings"]
                       : nullptr;
  std::string hosts;
  for (const auto& s : t.subtasks) hosts += (hosts.empty() ? "" : ",") + nodes_.at(s.node_id).ip;
  const int instances = std::max<int>(1, static_cast<int>(t.subtasks.size()));
  for (int i = 0; i < instances; ++i) {
    auto& node = t.subtasks.empty() ? n : nodes_.at(t.subtasks[i].node_id);
    const std::string dir = task_dir(options_.work_dir, node.id, j.id, t.id);
    BatchEnvInput env{
        options_.account,
        base_url_,
        node.pool_id,
        node.id,
        node_dir(options_.work_dir, node.id),
        j.id,
        t.id,
        dir,
        hosts.empty() ? node.ip : hosts,
        mi ? nodes_.at(t.subtasks[0].node_id).ip + ":6000" : "",
        i == 0,
        node.dedicated,
        t.extra && t.extra->contains("environmentSettings") ? &(*t.extra)["environmentSettings"]
                                                            : nullptr,
        j.spec.contains("commonEnvironmentSettings") ? &j.spec["commonEnvironmentSettings"]
                                                     : nullptr};
    Launch l;
    l.job = j.id;
    l.task = subtask_engine_id(t, i);
    const std::string coordination = mi ? mi->value("coordinationCommandLine", "") : "";
    // Every instance runs the coordination command; only the primary runs the application.
    l.command_line =
        i == 0 ? (coordination.empty() ? t.command_line : coordination + " && " + t.command_line)
               : (coordination.empty() ? "true" : coordination);
    l.workdir = dir + "/wd";
    l.environment = batch_environment(env);
    l.max_retries = i == 0 ? t.max_retries : 0;
    if (t.max_wall_us >= 0) l.max_wall = Duration(t.max_wall_us);
    bool container = t.extra && t.extra->contains("containerSettings");
    if (container)
      l.command_line =
          container_command(l.command_line, (*t.extra)["containerSettings"], l.workdir);
    if (auto ok = runner_->launch(l); !ok) {
      t.exec.failure_code = "TaskFailedToStart";
      t.exec.failure_message = ok.error().message;
    }
    link_outputs(dir, runner_->run_dir(l.job, l.task));
  }
  t.engine_started = true;
}

void Account::collect_runs() {
  if (!runner_) return;
  for (auto& [jid, j] : jobs_) {
    std::vector<std::string> done;
    for (const auto& tid : j.running) {
      auto& t = j.tasks.at(tid);
      if (!t.engine_started) continue;
      for (size_t i = 1; i < t.subtasks.size(); ++i) {
        auto& s = t.subtasks[i];
        if (s.state == TaskState::Completed) continue;
        auto st = runner_->status(j.id, subtask_engine_id(t, static_cast<int>(i)));
        if (!st) continue;
        if (st->state == trainyard::TaskState::Running && s.state != TaskState::Running) {
          s.state = TaskState::Running;
          s.state_time = now();
          copy_execution(*st, s.exec);
        } else if (st->state == trainyard::TaskState::Completed) {
          copy_execution(*st, s.exec);
          s.state = TaskState::Completed;
          s.state_time = now();
        }
      }
      auto st = runner_->status(j.id, subtask_engine_id(t, 0));
      if (!st) continue;
      if (st->state == trainyard::TaskState::Running && t.state == TaskState::Preparing) {
        set_task_state(t, TaskState::Running);
        if (!t.subtasks.empty()) t.subtasks[0].state = TaskState::Running;
      }
      if (st->execution_info.retry_count != t.exec.retry_count) {
        t.exec.retry_count = st->execution_info.retry_count;
        if (st->execution_info.last_retry_time)
          t.exec.last_retry = to_micros(*st->execution_info.last_retry_time);
        touch(t, now());
      }
      if (st->state == trainyard::TaskState::Completed && !t.moving_files) {
        copy_execution(*st, t.exec);
        if (!upload_outputs(j, t)) done.push_back(tid);
      }
    }
    for (const auto& tid : done) finish_task(j, j.tasks.at(tid));
  }
}

void Account::release_slots(const TaskEntity& t) {
  auto release = [&](const std::string& node_id) {
    auto n = nodes_.find(node_id);
    if (n == nodes_.end()) return;
    n->second.running_slots -= t.required_slots;
    n->second.running_tasks -= 1;
  };
  release(t.node_id);
  for (size_t i = 1; i < t.subtasks.size(); ++i) release(t.subtasks[i].node_id);
}

void Account::stop_run(const JobEntity& j, const TaskEntity& t, std::chrono::seconds grace) {
  if (runner_ && t.engine_started) runner_->stop(j.id, engine_id(t.id, t.engine_generation), grace);
}

void Account::finish_task(JobEntity& j, TaskEntity& t) {
  release_slots(t);
  for (size_t i = 1; i < t.subtasks.size(); ++i) {
    auto& s = t.subtasks[i];
    // The primary's end ends the task; instances still running are stopped, as Batch does,
    // and every instance is reported completed from then on.
    if (s.state == TaskState::Completed) continue;
    const auto id = subtask_engine_id(t, static_cast<int>(i));
    auto st = runner_ ? runner_->status(j.id, id) : std::nullopt;
    if (st && st->state == trainyard::TaskState::Completed) {
      copy_execution(*st, s.exec);
    } else {
      if (runner_) runner_->stop(j.id, id, std::chrono::seconds(2));
      s.exec.end = now();
      s.exec.result = TaskResult::Failure;
      s.exec.failure_code = "TaskEnded";
      s.exec.failure_message = "The instance was ended because the primary task completed";
    }
    s.state = TaskState::Completed;
    s.state_time = now();
  }
  if (!t.subtasks.empty()) {
    t.subtasks[0].exec = t.exec;
    t.subtasks[0].state = TaskState::Completed;
  }
  if (t.exec.result == TaskResult::None) {
    t.exec.result = t.exec.exit_code == 0 ? TaskResult::Success : TaskResult::Failure;
  }
  if (!t.exec.end) t.exec.end = now();
  auto n = nodes_.find(t.node_id);
  if (n != nodes_.end() && t.exec.result == TaskResult::Success)
    n->second.total_tasks_succeeded += 1;
  j.running.erase(t.id);
  set_task_state(t, TaskState::Completed);
  after_task_completed(j, t);
}

void Account::requeue_task(JobEntity& j, TaskEntity& t) {
  if (runner_ && t.engine_started) {
    const int instances = std::max<int>(1, static_cast<int>(t.subtasks.size()));
    for (int i = 0; i < instances; ++i)
      runner_->stop(j.id, subtask_engine_id(t, i), std::chrono::seconds(1));
  }
  release_slots(t);
  t.subtasks.clear();
  t.engine_started = false;
  t.engine_generation++;
  t.exec.requeue_count++;
  t.exec.last_requeue = now();
  t.node_id.clear();
  j.running.erase(t.id);
  j.pending.insert(t.id);
  set_task_state(t, TaskState::Active);
}

namespace {

// The jobAction the task's exitConditions give for how it ended, as the local engine decides.
ExitJobAction job_action_of(const TaskEntity& t) {
  std::string conditions;
  if (t.extra && t.extra->contains("exitConditions"))
    conditions = (*t.extra)["exitConditions"].dump();
  return exit_job_action(
      conditions, {t.exec.exit_code, t.exec.result == TaskResult::Failure, t.exec.failure_code});
}

}  // namespace

void Account::after_task_completed(JobEntity& j, TaskEntity& t) {
  if (::strcasecmp(j.spec.value("onTaskFailure", "noaction").c_str(),
                   "performexitoptionsjobaction") == 0) {
    const auto act = job_action_of(t);
    if (act == ExitJobAction::Terminate) return complete_job(j, "TaskFailed");
    if (act == ExitJobAction::Disable) set_job_state(j, JobState::Disabling);
  }
  if (::strcasecmp(j.spec.value("onAllTasksComplete", "noaction").c_str(), "terminatejob") == 0 &&
      j.pending.empty() && j.running.empty()) {
    complete_job(j, "AllTasksComplete");
  }
}

void Account::complete_job(JobEntity& j, const std::string& reason) {
  if (j.state == JobState::Terminating || j.state == JobState::Completed) return;
  j.terminate_reason = reason;
  for (const auto& tid : j.running) stop_run(j, j.tasks.at(tid), std::chrono::seconds(2));
  set_job_state(j, JobState::Terminating);
}

void Account::tick_jobs() {
  for (auto it = jobs_.begin(); it != jobs_.end();) {
    auto& j = it->second;
    switch (j.state) {
      case JobState::Disabling:
        set_job_state(j, JobState::Disabled);
        break;
      case JobState::Enabling:
        set_job_state(j, JobState::Active);
        break;
      case JobState::Terminating:
        // Tasks still queued complete as the job ends; running ones were stopped.
        if (j.running.empty()) {
          for (const auto& tid : j.pending) {
            auto& t = j.tasks.at(tid);
            set_task_state(t, TaskState::Completed);
          }
          j.pending.clear();
          run_job_release(j);
          j.end = now();
          set_job_state(j, JobState::Completed);
        }
        break;
      case JobState::Deleting:
        if (j.running.empty()) {
          if (runner_) {
            for (auto& [tid, t] : j.tasks) {
              for (int g = 0; g <= t.engine_generation && t.engine_started; ++g)
                runner_->remove(j.id, engine_id(t.id, g));
            }
          }
          it = jobs_.erase(it);
          ++changes_;
          continue;
        }
        break;
      default:
        break;
    }
    ++it;
  }
}

void Account::preempt_node(NodeEntity& n) {
  for (auto& [jid, j] : jobs_) {
    for (auto r = j.running.begin(); r != j.running.end();) {
      auto& t = j.tasks.at(*r++);
      bool here =
          t.node_id == n.id || std::any_of(t.subtasks.begin(), t.subtasks.end(),
                                           [&](const Subtask& s) { return s.node_id == n.id; });
      if (here) requeue_task(j, t);
    }
  }
  n.state = NodeState::Preempted;
  n.state_time = now();
  ++changes_;
}

}  // namespace trainyard::emu
