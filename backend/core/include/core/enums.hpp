// Batch enums with their exact wire names (azure-batch-api.md §5).
#pragma once

#include <optional>
#include <string_view>

namespace trainyard {

/// CloudTask.state
enum class TaskState { Active, Preparing, Running, Completed };
/// CloudJob.state
enum class JobState { Active, Disabling, Disabled, Enabling, Terminating, Completed, Deleting };
/// CloudPool.state
enum class PoolState { Active, Deleting };
/// CloudPool.allocationState
enum class AllocationState { Steady, Resizing, Stopping };
/// ComputeNode.state
enum class NodeState {
  Idle,
  Rebooting,
  Reimaging,
  Running,
  Unusable,
  Creating,
  Starting,
  WaitingForStartTask,
  StartTaskFailed,
  Unknown,
  LeavingPool,
  Offline,
  Preempted,
  UpgradingOs,
  Deallocated,
  Deallocating
};
/// ComputeNode.schedulingState
enum class SchedulingState { Enabled, Disabled };
/// TaskExecutionResult
enum class TaskResult { Success, Failure };
/// ErrorCategory of failureInfo
enum class ErrorCategory { UserError, ServerError };

/// Wire name, lowercase as Batch sends it.
std::string_view to_wire(TaskState s);
std::string_view to_wire(JobState s);
std::string_view to_wire(PoolState s);
std::string_view to_wire(AllocationState s);
std::string_view to_wire(NodeState s);
std::string_view to_wire(SchedulingState s);
std::string_view to_wire(TaskResult s);
std::string_view to_wire(ErrorCategory s);

/// Parses a wire name case-insensitively; nullopt when unknown.
template <typename E>
std::optional<E> from_wire(std::string_view text);

template <>
std::optional<TaskState> from_wire<TaskState>(std::string_view text);
template <>
std::optional<JobState> from_wire<JobState>(std::string_view text);
template <>
std::optional<PoolState> from_wire<PoolState>(std::string_view text);
template <>
std::optional<AllocationState> from_wire<AllocationState>(std::string_view text);
template <>
std::optional<NodeState> from_wire<NodeState>(std::string_view text);
template <>
std::optional<SchedulingState> from_wire<SchedulingState>(std::string_view text);
template <>
std::optional<TaskResult> from_wire<TaskResult>(std::string_view text);
template <>
std::optional<ErrorCategory> from_wire<ErrorCategory>(std::string_view text);

}  // namespace trainyard
