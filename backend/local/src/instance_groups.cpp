#include "instance_groups.hpp"

#include <signal.h>

#include <charconv>
#include <chrono>
#include <sstream>

#include "local/process.hpp"
#include "local/task_environment.hpp"

namespace trainyard {

std::string format_instance_groups(const std::vector<InstanceGroup>& groups) {
  std::string out;
  for (const auto& g : groups)
    out += (out.empty() ? "" : ",") + std::to_string(g.pgid) + ":" + std::to_string(g.start_ticks);
  return out;
}

std::vector<InstanceGroup> parse_instance_groups(const std::string& text) {
  std::vector<InstanceGroup> out;
  std::stringstream ss(text);
  for (std::string part; std::getline(ss, part, ',');) {
    auto colon = part.find(':');
    if (colon == std::string::npos) continue;
    InstanceGroup g;
    const char* end = part.data() + part.size();
    auto a = std::from_chars(part.data(), part.data() + colon, g.pgid);
    auto b = std::from_chars(part.data() + colon + 1, end, g.start_ticks);
    if (a.ec == std::errc() && b.ec == std::errc() && g.pgid > 0) out.push_back(g);
  }
  return out;
}

bool group_is_runs(const InstanceGroup& g, const std::string& run_dir) {
  if (auto leader = process_start_ticks(g.pgid)) return *leader == g.start_ticks;
  // A coordination command may exit and leave its services running: they inherited the marker.
  const std::string marker = std::string(kRunDirVariable) + "=" + run_dir;
  for (pid_t member : group_members(g.pgid))
    if (environment_holds(member, marker)) return true;
  return false;
}

void terminate_instance_groups(const std::vector<InstanceGroup>& groups, const std::string& run_dir,
                               std::chrono::milliseconds grace, void (*reap)()) {
  std::vector<pid_t> ours;
  for (const auto& g : groups)
    if (group_alive(g.pgid) && group_is_runs(g, run_dir)) ours.push_back(g.pgid);
  // All get SIGTERM first, so their grace periods run together.
  for (pid_t pgid : ours) (void)signal_group(pgid, SIGTERM);
  for (pid_t pgid : ours) terminate_group(pgid, grace, reap);
}

void end_orphaned_groups(const LocalRun& run) {
  // The task's own group too: what its leader started outlives the leader, and only a supervisor
  // ends the group once the leader has exited.
  auto groups = parse_instance_groups(run.instance_groups);
  if (run.pgid > 0) groups.push_back(InstanceGroup{static_cast<pid_t>(run.pgid), run.start_ticks});
  terminate_instance_groups(groups, run.run_dir, std::chrono::seconds(2));
}

Result<void> record_orphaned_subtasks(Store& store, const LocalRun& run, Timestamp now,
                                      const std::string& reason) {
  auto subtasks = store.subtasks(kLocalAccount, run.job, run.task);
  if (!subtasks) return subtasks.error();
  if (subtasks->empty()) return ok_result();
  for (auto& s : *subtasks) {
    if (s.state == TaskState::Completed) continue;
    s.state = TaskState::Completed;
    s.state_transition_time = s.execution_info.end_time = now;
    s.execution_info.result = TaskResult::Failure;
    s.execution_info.failure_info = FailureInfo{ErrorCategory::ServerError, "TaskEnded", reason};
  }
  return store.replace_subtasks(kLocalAccount, run.job, run.task, *subtasks);
}

}  // namespace trainyard
