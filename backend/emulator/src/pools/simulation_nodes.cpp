// Pools allocate virtual nodes over time; nodes boot, run their start task, and leave.
#include <filesystem>

#include <fmt/format.h>

#include "account.hpp"
#include "batch_env.hpp"
#include "emulator/autoscale.hpp"
#include "runner.hpp"
#include "sandbox.hpp"
#include "wire_time.hpp"

namespace trainyard::emu {

namespace {
constexpr const char* kStartTaskJob = "_starttask";
}  // namespace

Micros Account::now() const {
  return to_micros(SystemClock().now());
}

int Account::free_slots(const NodeEntity& n) const {
  auto p = pools_.find(n.pool_id);
  int total = p == pools_.end() ? 1 : p->second.task_slots_per_node;
  return total - n.running_slots;
}

NodeEntity& Account::add_node(PoolEntity& p, bool dedicated) {
  ++node_seq_;
  NodeEntity n;
  n.id = fmt::format("tvmps_{:012x}_{}",
                     (std::hash<std::string>{}(p.id) & 0xffffffffffffULL) ^ node_seq_,
                     dedicated ? 'd' : 'p');
  n.pool_id = p.id;
  n.dedicated = dedicated;
  n.state = NodeState::Creating;
  n.state_time = n.allocation_time = now();
  // Every 127.x address reaches this machine, so multi-instance tasks can really connect.
  n.ip = fmt::format("127.0.{}.{}", 1 + (node_seq_ / 250) % 250, 1 + node_seq_ % 250);
  std::error_code ec;
  std::filesystem::create_directories(shared_dir(options_.work_dir, n.id), ec);
  std::filesystem::create_directories(startup_dir(options_.work_dir, n.id) + "/wd", ec);
  auto [it, _] = nodes_.emplace(n.id, std::move(n));
  ++changes_;
  return it->second;
}

void Account::tick_pools() {
  const Micros t = now();
  for (auto it = pools_.begin(); it != pools_.end();) {
    auto& p = it->second;
    int dedicated = 0, low = 0;
    bool leaving = false;
    for (auto& [id, n] : nodes_) {
      if (n.pool_id != p.id) continue;
      if (n.leaving || n.state == NodeState::LeavingPool) {
        leaving = true;
        continue;
      }
      (n.dedicated ? dedicated : low) += 1;
    }
    if (p.auto_scale && p.alloc == AllocState::Steady) {
      auto interval = read_wire_duration(p.auto_scale_interval);
      Micros every = interval ? std::max<Micros>(*interval, 5'000'000) : 900'000'000;
      if (t - p.auto_scale_enabled_at >= every) {
        AutoscaleInputs in;
        for (const auto& [jid, j] : jobs_) {
          if (j.pool_id != p.id) continue;
          in.active_tasks += static_cast<int>(j.pending.size());
          in.running_tasks += static_cast<int>(j.running.size());
        }
        in.pending_tasks = in.active_tasks + in.running_tasks;
        in.current_dedicated = dedicated;
        in.current_low_priority = low;
        in.target_dedicated = p.target_dedicated;
        in.target_low_priority = p.target_low_priority;
        auto run = evaluate_autoscale(p.auto_scale_formula, in);
        p.auto_scale_run = {{"timestamp", format_time(t)}, {"results", run.results}};
        p.auto_scale_enabled_at = t;
        if (run.error_code.empty()) {
          p.target_dedicated = run.target_dedicated.value_or(p.target_dedicated);
          p.target_low_priority = run.target_low_priority.value_or(p.target_low_priority);
          if (p.target_dedicated != dedicated || p.target_low_priority != low) {
            p.alloc = AllocState::Resizing;
            p.alloc_time = t;
          }
        }
      }
    }
    if (p.alloc == AllocState::Stopping) {
      p.alloc = AllocState::Steady;
      p.alloc_time = t;
      ++changes_;
    } else if (p.alloc == AllocState::Resizing) {
      // One node of each kind per step: allocation takes time, as on the service.
      if (dedicated < p.target_dedicated) add_node(p, true);
      if (low < p.target_low_priority) add_node(p, false);
      auto shrink = [&](bool kind, int excess) {
        for (auto& [id, n] : nodes_) {
          if (excess <= 0) break;
          if (n.pool_id != p.id || n.dedicated != kind || n.leaving) continue;
          n.leaving = true;
          --excess;
        }
      };
      shrink(true, dedicated - p.target_dedicated);
      shrink(false, low - p.target_low_priority);
      if (dedicated == p.target_dedicated && low == p.target_low_priority && !leaving) {
        p.alloc = AllocState::Steady;
        p.alloc_time = t;
        ++changes_;
      }
    }
    if (p.state == PoolState::Deleting && p.alloc == AllocState::Steady && dedicated + low == 0 &&
        !leaving) {
      it = pools_.erase(it);
      ++changes_;
    } else {
      ++it;
    }
  }
}

namespace {

bool start_task_waits(const nlohmann::json& spec) {
  return spec.contains("startTask") && spec["startTask"].value("waitForSuccess", true);
}

}  // namespace

void Account::tick_nodes() {
  const Micros t = now();
  const Micros step = static_cast<Micros>(options_.node_step_ms) * 1000;
  auto set = [&](NodeEntity& n, NodeState s) {
    n.state = s;
    n.state_time = t;
    ++changes_;
  };
  for (auto it = nodes_.begin(); it != nodes_.end();) {
    auto& n = it->second;
    auto pool = pools_.find(n.pool_id);
    if (n.leaving) {
      if (n.state != NodeState::LeavingPool) {
        for (auto& [jid, j] : jobs_) {
          for (auto r = j.running.begin(); r != j.running.end();) {
            auto& task = j.tasks.at(*r++);
            if (task.node_id == n.id ||
                std::any_of(task.subtasks.begin(), task.subtasks.end(),
                            [&](const Subtask& s) { return s.node_id == n.id; })) {
              requeue_task(j, task);
            }
          }
        }
        set(n, NodeState::LeavingPool);
      } else if (n.running_tasks <= 0) {
        if (runner_ && n.start_task_running)
          runner_->stop(kStartTaskJob, n.id, std::chrono::seconds(1));
        it = nodes_.erase(it);
        ++changes_;
        continue;
      }
      ++it;
      continue;
    }
    const bool elapsed = t - n.state_time >= step;
    switch (n.state) {
      case NodeState::Creating:
        if (elapsed) set(n, NodeState::Starting);
        break;
      case NodeState::Rebooting:
      case NodeState::Reimaging:
        if (elapsed) {
          n.boot_time = t;
          set(n, NodeState::Starting);
        }
        break;
      case NodeState::Preempted:
        if (t - n.state_time >= 4 * step) set(n, NodeState::Starting);
        break;
      case NodeState::Starting:
        if (!elapsed) break;
        n.boot_time = n.boot_time ? n.boot_time : t;
        if (pool != pools_.end() && pool->second.spec.contains("startTask")) {
          launch_start_task(n, pool->second);
          set(n, start_task_waits(pool->second.spec) ? NodeState::WaitingForStartTask
                                                     : NodeState::Idle);
        } else {
          set(n, NodeState::Idle);
        }
        break;
      case NodeState::WaitingForStartTask:
        if (!n.start_task_running && n.start_task) {
          set(n, n.start_task->result == TaskResult::Failure ? NodeState::StartTaskFailed
                                                             : NodeState::Idle);
        }
        break;
      case NodeState::Idle:
        if (n.running_tasks > 0) set(n, NodeState::Running);
        break;
      case NodeState::Running:
        if (n.running_tasks <= 0) set(n, NodeState::Idle);
        break;
      default:
        break;
    }
    ++it;
  }
}

void Account::launch_start_task(NodeEntity& n, const PoolEntity& p) {
  const auto& st = p.spec["startTask"];
  n.start_task = Execution{};
  n.start_task->start = now();
  n.start_task_running = true;
  if (!runner_) return;
  const std::string dir = startup_dir(options_.work_dir, n.id);
  BatchEnvInput env{options_.account,
                    base_url_,
                    p.id,
                    n.id,
                    node_dir(options_.work_dir, n.id),
                    "",
                    "",
                    dir,
                    n.ip,
                    "",
                    true,
                    n.dedicated,
                    st.contains("environmentSettings") ? &st["environmentSettings"] : nullptr,
                    nullptr};
  Launch l;
  l.job = kStartTaskJob;
  l.task = engine_id(n.id, static_cast<int>(n.boot_time % 1000));
  runner_->remove(l.job, l.task);
  l.command_line = st.value("commandLine", "true");
  l.workdir = dir + "/wd";
  l.environment = batch_environment(env);
  l.max_retries = st.value("maxTaskRetryCount", 0);
  n.start_task_engine_id = l.task;
  if (auto ok = runner_->launch(l); !ok) {
    n.start_task_running = false;
    n.start_task->end = now();
    n.start_task->result = TaskResult::Failure;
    n.start_task->failure_code = "TaskFailedToStart";
    n.start_task->failure_message = ok.error().message;
    return;
  }
  link_outputs(dir, runner_->run_dir(l.job, l.task));
}

void Account::collect_start_tasks() {
  for (auto& [id, n] : nodes_) {
    if (!n.start_task_running || !runner_) continue;
    auto s = runner_->status(kStartTaskJob, n.start_task_engine_id);
    if (!s || s->state != trainyard::TaskState::Completed) continue;
    copy_execution(*s, *n.start_task);
    n.start_task_running = false;
    ++changes_;
  }
}

void copy_execution(const trainyard::Task& from, Execution& to) {
  const auto& e = from.execution_info;
  if (e.start_time) to.start = to_micros(*e.start_time);
  if (e.end_time) to.end = to_micros(*e.end_time);
  to.exit_code = e.exit_code;
  to.retry_count = e.retry_count;
  if (e.last_retry_time) to.last_retry = to_micros(*e.last_retry_time);
  if (e.result)
    to.result =
        *e.result == trainyard::TaskResult::Success ? TaskResult::Success : TaskResult::Failure;
  if (e.failure_info) {
    to.failure_code = e.failure_info->code;
    to.failure_message = e.failure_info->message;
    // The engine's word for a stopped run; Batch reports a terminated task as TaskEnded.
    if (to.failure_code == "TaskTerminated") {
      to.failure_code = "TaskEnded";
      to.failure_message = "Task Was Ended by User Request";
    }
  }
}

}  // namespace trainyard::emu
