// Multi-instance tasks run as Batch runs them: every instance runs the coordination command
// on its own slots; once all have exited with 0, the primary alone runs the command line.
#include <fmt/format.h>

#include "gpu_id_list.hpp"
#include "supervision.hpp"

namespace trainyard {
namespace {

std::vector<std::string> split_nul(const std::string& blob) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t i = 0; i <= blob.size(); ++i) {
    if (i < blob.size() && blob[i] != '\0') continue;
    if (i > start) out.push_back(blob.substr(start, i - start));
    start = i + 1;
  }
  return out;
}

// The GPUs of instance `i` when the run holds `all` for `count` instances.
std::vector<int> instance_gpus(const std::vector<int>& all, int count, int i) {
  if (all.empty() || count < 1) return {};
  const size_t per = all.size() / static_cast<size_t>(count);
  auto first = all.begin() + static_cast<std::ptrdiff_t>(per * static_cast<size_t>(i));
  return {first, first + static_cast<std::ptrdiff_t>(per)};
}

std::string instance_dir(const RunPaths& paths, int i) {
  return fmt::format("{}/instances/{}", paths.dir, i);
}

}  // namespace

int Supervision::instance_count() const {
  return task_.multi_instance ? std::max(1, task_.multi_instance->number_of_instances) : 1;
}

TaskEnvironmentInput Supervision::instance_environment(int instance, const std::string& env_blob) {
  TaskEnvironmentInput in;
  // Scrubbed again: a run file written before a name was configured as a secret source.
  in.submitter_env = scrub_environment(split_nul(env_blob), config_.secret_variables);
  in.task = &task_;
  in.node_id = local_node_id();
  in.data_dir = config_.data_dir;
  in.task_dir = instance == 0 ? paths_.dir : instance_dir(paths_, instance);
  in.shared_dir = paths_.dir;
  in.working_dir = run_.workdir.empty() ? in.task_dir : run_.workdir;
  in.attempt = task_.execution_info.retry_count;
  in.instance = instance;
  in.run_dir = run_.run_dir.empty() ? paths_.dir : run_.run_dir;
  in.gpu_uuids = uuids_of(instance_gpus(parse_gpu_ids(run_.gpu_ids), instance_count(), instance));
  return in;
}

Result<std::vector<ChildInfo>> Supervision::start_coordination() {
  auto env_blob = read_small_file(paths_.environment);
  if (!env_blob) return env_blob.error();
  const auto& command = task_.multi_instance->coordination_command_line;
  const int count = instance_count();
  std::vector<ChildInfo> leaders(static_cast<size_t>(count));
  subtasks_.clear();
  primary_coordination_.reset();
  auto now = clock_.now();
  for (int i = 0; i < count; ++i) {
    auto in = instance_environment(i, *env_blob);
    auto dir = instance_dir(paths_, i);
    if (auto r = make_directories(dir); !r) return r.error();
    if (i > 0) {
      Subtask s;
      s.id = i;
      s.state = TaskState::Running;
      s.state_transition_time = s.execution_info.start_time = now;
      s.node_info = TaskNodeInfo{kLocalPool, in.node_id, in.task_dir};
      subtasks_.push_back(s);
    }
    if (command.empty()) continue;
    ChildSpec spec{command, build_task_environment(in), in.working_dir, dir + "/stdout.txt",
                   dir + "/stderr.txt"};
    auto child = spawn_task_process(spec);
    if (!child) return child.error();
    leaders[static_cast<size_t>(i)] = *child;
    instance_groups_.push_back({child->pgid, child->start_ticks});
  }
  return leaders;
}

Result<std::optional<AttemptOutcome>> Supervision::run_coordination() {
  instance_groups_.clear();
  // An attempt of a multi-instance task starts with its coordination commands.
  task_.execution_info.start_time = clock_.now();
  task_.execution_info.end_time.reset();
  auto leaders = start_coordination();
  if (auto saved = save_subtasks(); !saved) log(saved.error().message);
  if (!leaders) return leaders.error();
  log(fmt::format("attempt {}: coordination command started in {} instance(s)", run_.attempt,
                  instance_count()));
  auto failed = wait_coordination(*leaders);
  if (auto saved = save_subtasks(); !saved) log(saved.error().message);
  if (failed) log(fmt::format("{} failed: the primary's command is not run", failed->what));
  return failed;
}

void Supervision::coordination_exited(size_t instance, const ExitStatus& status) {
  if (instance == 0) {
    primary_coordination_ = status;
    return;
  }
  auto& s = subtasks_.at(instance - 1);
  s.execution_info.exit_code = status.shell_code();
  s.execution_info.result = status.shell_code() == 0 ? TaskResult::Success : TaskResult::Failure;
}

// A subtask's end: its coordination command's exit code, or why it has none.
static void complete_subtask(Subtask& s, bool has_command, Timestamp now) {
  auto& e = s.execution_info;
  s.state = TaskState::Completed;
  s.state_transition_time = e.end_time = now;
  if (!e.exit_code) {
    e.result = has_command ? TaskResult::Failure : TaskResult::Success;
    if (has_command)
      e.failure_info = FailureInfo{ErrorCategory::UserError, "TaskEnded",
                                   "the task ended before this instance's coordination command"};
  } else if (*e.exit_code != 0) {
    e.failure_info =
        FailureInfo{ErrorCategory::UserError, "FailureExitCode",
                    fmt::format("the coordination command exited with code {}", *e.exit_code)};
  }
}

void Supervision::end_instances(const AttemptOutcome& out) {
  (void)out;
  if (!task_.multi_instance) return;
  // Services a coordination command left running end with the task, as on Batch nodes.
  terminate_instance_groups(instance_groups_, run_.run_dir.empty() ? paths_.dir : run_.run_dir,
                            std::chrono::seconds(2), reap_any_children);
  instance_groups_.clear();
  const bool has_command = !task_.multi_instance->coordination_command_line.empty();
  auto now = clock_.now();
  for (auto& s : subtasks_)
    if (s.state != TaskState::Completed) complete_subtask(s, has_command, now);
  if (auto saved = save_subtasks(); !saved) log(saved.error().message);
}

Result<void> Supervision::save_subtasks() {
  LocalRun run = run_;
  run.instance_groups = format_instance_groups(instance_groups_);
  // The task runs from its coordination commands on, as on Batch.
  Task task = task_;
  bool starts = task.state == TaskState::Preparing;
  if (starts) {
    task.previous_state = task.state;
    task.state = TaskState::Running;
    task.state_transition_time = clock_.now();
  }
  auto r = write_until_stored([&]() -> Result<void> {
    TY_TRY(keep_stored_stop(run));
    TY_TRY(store_.upsert_local_run(run));
    if (starts) TY_TRY(store_.upsert_task(task));
    return store_.replace_subtasks(kLocalAccount, task.job_id, task.id, subtasks_);
  });
  if (!r) return r;
  run_ = run;
  task_ = task;
  return ok_result();
}

}  // namespace trainyard
