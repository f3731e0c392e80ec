// The first field in which two Tasks differ, for the tests and the fuzz target that hold the
// streaming task-page parser to the DOM one.
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "core/entities.hpp"

namespace trainyard::azuretest {

inline bool same_failure(const std::optional<FailureInfo>& a, const std::optional<FailureInfo>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->category == b->category && a->code == b->code && a->message == b->message);
}

inline bool same_node(const std::optional<TaskNodeInfo>& a, const std::optional<TaskNodeInfo>& b) {
  if (a.has_value() != b.has_value()) return false;
  return !a || (a->pool_id == b->pool_id && a->node_id == b->node_id &&
                a->task_root_directory == b->task_root_directory);
}

/// The name of the first field of `a` and `b` that differs; empty when every field is equal.
inline std::string first_difference(const Task& a, const Task& b) {
  const ExecutionInfo &x = a.execution_info, &y = b.execution_info;
  const std::pair<const char*, bool> fields[] = {
      {"account", a.account == b.account},
      {"job_id", a.job_id == b.job_id},
      {"id", a.id == b.id},
      {"display_name", a.display_name == b.display_name},
      {"command_line", a.command_line == b.command_line},
      {"state", a.state == b.state},
      {"creation_time", a.creation_time == b.creation_time},
      {"state_transition_time", a.state_transition_time == b.state_transition_time},
      {"previous_state", a.previous_state == b.previous_state},
      {"environment_settings", a.environment_settings == b.environment_settings},
      {"resource_files", a.resource_files == b.resource_files},
      {"output_files", a.output_files == b.output_files},
      {"constraints.max_wall_clock_time",
       a.constraints.max_wall_clock_time == b.constraints.max_wall_clock_time},
      {"constraints.max_task_retry_count",
       a.constraints.max_task_retry_count == b.constraints.max_task_retry_count},
      {"depends_on", a.depends_on.task_ids == b.depends_on.task_ids},
      {"required_slots", a.required_slots == b.required_slots},
      {"execution_info.start_time", x.start_time == y.start_time},
      {"execution_info.end_time", x.end_time == y.end_time},
      {"execution_info.exit_code", x.exit_code == y.exit_code},
      {"execution_info.result", x.result == y.result},
      {"execution_info.failure_info", same_failure(x.failure_info, y.failure_info)},
      {"execution_info.retry_count", x.retry_count == y.retry_count},
      {"execution_info.last_retry_time", x.last_retry_time == y.last_retry_time},
      {"execution_info.requeue_count", x.requeue_count == y.requeue_count},
      {"node_info", same_node(a.node_info, b.node_info)},
      {"multi_instance", a.multi_instance == b.multi_instance},
      {"last_modified", a.last_modified == b.last_modified},
      {"etag", a.etag == b.etag},
  };
  for (const auto& [name, same] : fields)
    if (!same) return name;
  return "";
}

}  // namespace trainyard::azuretest
