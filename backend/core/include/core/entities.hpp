// The one entity model: Account, Pool, Node, Job, Task (wire names in comments).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/enums.hpp"
#include "core/time.hpp"

namespace trainyard {

/// The built-in account and pool of this machine.
inline constexpr const char* kLocalAccount = "local";
inline constexpr const char* kLocalPool = "local";

/// A name/value pair (`environmentSettings`, `metadata`).
struct NameValue {
  std::string name;
  std::string value;
  bool operator==(const NameValue&) const = default;
};

/// Where entities come from.
enum class AccountKind { Local, Batch, Emulator };

/// An account: `local`, or a Batch account.
struct Account {
  std::string name;
  AccountKind kind = AccountKind::Local;
  std::string endpoint;  ///< empty for local
};

/// CloudPool (the fields trainyard shows).
struct Pool {
  std::string account;
  std::string id;
  std::string display_name;
  std::string vm_size;
  PoolState state = PoolState::Active;
  AllocationState allocation_state = AllocationState::Steady;
  int current_dedicated_nodes = 0;
  int target_dedicated_nodes = 0;
  int current_low_priority_nodes = 0;
  int target_low_priority_nodes = 0;
  int task_slots_per_node = 1;
  std::optional<Timestamp> creation_time;
  std::optional<Timestamp> state_transition_time;
  std::string resize_error;  ///< resizeErrors as `code: message`, `; `-joined; empty when none
  std::optional<Timestamp> last_modified;  ///< lastModified (Batch only); orders snapshots
  std::string etag;                        ///< eTag (Batch only); empty when unknown
};

/// ComputeNode.
struct Node {
  std::string account;
  std::string pool_id;
  std::string id;
  NodeState state = NodeState::Idle;
  SchedulingState scheduling_state = SchedulingState::Enabled;
  std::string vm_size;
  std::string ip_address;
  int running_tasks_count = 0;
  int running_task_slots_count = 0;
  int total_tasks_run = 0;
  int task_slots = 1;  ///< slots this node offers (taskSlotsPerNode of its pool)
  std::optional<Timestamp> state_transition_time;
  /// Why it is unwell: the start task's failure (with its exit code) and `errors`, `; `-joined.
  std::string error;
  bool is_dedicated = true;  ///< isDedicated: false for a Spot (low-priority) node
};

/// CloudJob.
struct Job {
  std::string account;
  std::string id;
  std::string display_name;
  std::string pool_id;  ///< poolInfo.poolId
  JobState state = JobState::Active;
  int priority = 0;
  std::optional<Timestamp> creation_time;
  std::optional<Timestamp> state_transition_time;
  std::vector<NameValue> metadata;
  std::optional<Timestamp> last_modified;  ///< lastModified (Batch only); orders snapshots
  std::string etag;                        ///< eTag (Batch only); empty when unknown
  /// onAllTasksComplete as the local engine honours it: `terminatejob` completes the job when its
  /// last task completes; empty or `noaction` leaves it active.
  std::string on_all_tasks_complete;
  /// onTaskFailure as the local engine honours it: `performexitoptionsjobaction` takes the
  /// jobAction of a failed task's exitConditions (local/exit_conditions.hpp); empty or
  /// `noaction` takes none.
  std::string on_task_failure;
  /// executionInfo.terminateReason of a job that ended: `AllTasksComplete`, `TaskFailed`…
  std::string terminate_reason;
};

/// taskExecutionInfo.failureInfo
struct FailureInfo {
  ErrorCategory category = ErrorCategory::UserError;
  std::string code;
  std::string message;
  /// details (`FileUploadError`: one per outputFiles entry that failed). Read from a task's own
  /// GET; task list pages (and so the cache) leave them out.
  std::vector<NameValue> details;
};

/// taskExecutionInfo
struct ExecutionInfo {
  std::optional<Timestamp> start_time;
  std::optional<Timestamp> end_time;
  std::optional<int> exit_code;
  std::optional<TaskResult> result;
  std::optional<FailureInfo> failure_info;
  int retry_count = 0;
  std::optional<Timestamp> last_retry_time;
  int requeue_count = 0;
};

/// taskConstraints; nullopt wall time means unlimited.
struct TaskConstraints {
  std::optional<Duration> max_wall_clock_time;
  int max_task_retry_count = 0;  ///< -1 = unlimited
};

/// dependsOn.taskIds (ranges are expanded on input).
struct TaskDependencies {
  std::vector<std::string> task_ids;
};

/// nodeInfo
struct TaskNodeInfo {
  std::string pool_id;
  std::string node_id;
  std::string task_root_directory;
};

/// multiInstanceSettings: the task runs on `number_of_instances` nodes (locally: GPU slots); every
/// instance runs the coordination command, then the primary alone runs the command line.
struct MultiInstanceSettings {
  int number_of_instances = 1;
  std::string coordination_command_line;
  bool operator==(const MultiInstanceSettings&) const = default;
};

/// SubtaskInformation: one non-primary instance of a multi-instance task (ids from 1).
struct Subtask {
  int id = 0;
  TaskState state = TaskState::Preparing;  ///< preparing, running or completed
  std::optional<Timestamp> state_transition_time;
  std::optional<TaskNodeInfo> node_info;
  ExecutionInfo execution_info;  ///< start/end time, exit code, result and failure
};

/// resourceFiles[]: what the service downloads to the node before the task runs; one of the
/// three sources is set. URLs are kept without their query, so no SAS signature is stored.
struct ResourceFile {
  std::string http_url;                     ///< httpUrl
  std::string storage_container_url;        ///< storageContainerUrl
  std::string auto_storage_container_name;  ///< autoStorageContainerName
  std::string blob_prefix;                  ///< blobPrefix (container sources)
  std::string file_path;                    ///< filePath, relative to the task's directory
  std::string file_mode;                    ///< fileMode (octal, Linux nodes)
  std::string identity;                     ///< identityReference.resourceId
  bool operator==(const ResourceFile&) const = default;
};

/// outputFiles[]: what the service uploads to a blob container after the task ends.
struct OutputFile {
  std::string file_pattern;   ///< filePattern
  std::string container_url;  ///< destination.container.containerUrl, without its query
  std::string path;           ///< destination.container.path (blob or virtual directory)
  std::string identity;       ///< destination.container.identityReference.resourceId
  std::vector<NameValue> upload_headers;  ///< destination.container.uploadHeaders
  /// uploadOptions.uploadCondition: tasksuccess, taskfailure or taskcompletion.
  std::string upload_condition;
  bool operator==(const OutputFile&) const = default;
};

/// CloudTask.
struct Task {
  std::string account;
  std::string job_id;
  std::string id;
  std::string display_name;
  std::string command_line;
  TaskState state = TaskState::Active;
  std::optional<Timestamp> creation_time;
  std::optional<Timestamp> state_transition_time;
  std::optional<TaskState> previous_state;
  std::vector<NameValue> environment_settings;
  std::vector<ResourceFile> resource_files;
  std::vector<OutputFile> output_files;
  TaskConstraints constraints;
  TaskDependencies depends_on;
  int required_slots = 1;
  ExecutionInfo execution_info;
  std::optional<TaskNodeInfo> node_info;
  std::optional<MultiInstanceSettings> multi_instance;
  /// lastModified (Batch only): moves with every change, retries and constraints included.
  std::optional<Timestamp> last_modified;
  std::string etag;  ///< eTag (Batch only); empty when unknown
};

/// The SLOTS a list shows: `2`, or `3x1` for three instances of one slot each.
std::string slots_text(const Task& t);

/// How a task ended, as Batch's executionInfo.result says; Unfinished until it has. A completed
/// task with no result recorded is judged by its failure info, then its exit code (0: success).
enum class TaskOutcome { Success, Failure, Unfinished };

/// The outcome of `t`.
TaskOutcome task_outcome(const Task& t);

/// A task's state as tables show it: `failed` for a completed task whose result is failure
/// (whatever its exit code: an upload that failed after exit 0), else its wire state.
std::string_view task_state_text(const Task& t);

/// Printable kind name (`local`, `batch`, `emulator`).
const char* to_string(AccountKind kind);

}  // namespace trainyard
