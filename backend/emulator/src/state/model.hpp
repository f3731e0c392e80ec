// The emulator's own entities: compact, so a million tasks fit in a few hundred megabytes.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace trainyard::emu {

using Micros = int64_t;  ///< microseconds since the epoch; 0 = absent

enum class PoolState : uint8_t { Active, Deleting };
enum class AllocState : uint8_t { Steady, Resizing, Stopping };
enum class NodeState : uint8_t {
  Creating,
  Starting,
  WaitingForStartTask,
  StartTaskFailed,
  Idle,
  Running,
  Rebooting,
  Reimaging,
  Preempted,
  LeavingPool,
  Unusable,
  Offline,
};
enum class JobState : uint8_t {
  Active,
  Disabling,
  Disabled,
  Enabling,
  Terminating,
  Completed,
  Deleting
};
enum class TaskState : uint8_t { Active, Preparing, Running, Completed };
enum class TaskResult : uint8_t { None, Success, Failure };

/// Wire names of the enums (lowercase, as the service sends them).
const char* wire(PoolState s);
const char* wire(AllocState s);
const char* wire(NodeState s);
const char* wire(JobState s);
const char* wire(TaskState s);
const char* wire(TaskResult r);

/// How an execution ended (task, subtask or start task).
struct Execution {
  Micros start = 0;
  Micros end = 0;
  std::optional<int> exit_code;
  int retry_count = 0;
  int requeue_count = 0;
  Micros last_retry = 0;
  Micros last_requeue = 0;
  TaskResult result = TaskResult::None;
  std::string failure_code;  ///< empty: no failureInfo
  std::string failure_message;
  /// failureInfo.details: name and value (`FileUploadError`, one per outputFiles entry that
  /// failed to upload).
  std::vector<std::pair<std::string, std::string>> failure_details;
};

/// Fields every entity carries for ETags and Last-Modified.
struct Versioned {
  std::string etag;
  Micros last_modified = 0;
  Micros creation = 0;
};

/// CloudPool: what the client gave (`spec`) plus what the service maintains.
struct PoolEntity : Versioned {
  std::string id;
  nlohmann::json spec;  ///< writable properties as given (vmSize, startTask, metadata, …)
  PoolState state = PoolState::Active;
  Micros state_time = 0;
  AllocState alloc = AllocState::Steady;
  Micros alloc_time = 0;
  int target_dedicated = 0;
  int target_low_priority = 0;
  bool auto_scale = false;
  std::string auto_scale_formula;
  std::string auto_scale_interval = "PT15M";
  Micros auto_scale_enabled_at = 0;
  nlohmann::json auto_scale_run;  ///< last AutoScaleRun, null when none
  nlohmann::json resize_errors = nlohmann::json::array();
  Micros resize_deadline = 0;
  int task_slots_per_node = 1;
};

/// ComputeNode: virtual, with a sandbox directory on this machine.
struct NodeEntity {
  std::string id;
  std::string pool_id;
  bool dedicated = true;
  NodeState state = NodeState::Creating;
  Micros state_time = 0;
  bool scheduling_enabled = true;
  Micros allocation_time = 0;
  Micros boot_time = 0;
  std::string ip;
  int total_tasks_run = 0;
  int total_tasks_succeeded = 0;
  int running_slots = 0;
  int running_tasks = 0;
  std::optional<Execution> start_task;  ///< startTaskInfo once the start task ran
  bool start_task_running = false;
  std::string start_task_engine_id;
  std::vector<std::pair<std::string, std::string>> recent;  ///< job/task run here, newest last
  bool leaving = false;  ///< to be removed once its tasks are done
};

/// One instance of a multi-instance task.
struct Subtask {
  int id = 0;
  std::string node_id;
  TaskState state = TaskState::Preparing;
  Micros state_time = 0;
  Execution exec;
};

/// CloudTask. Rare properties stay in `extra` so seeded tasks cost little memory.
struct TaskEntity : Versioned {
  std::string id;
  std::string command_line;
  TaskState state = TaskState::Active;
  TaskState prev_state = TaskState::Active;
  Micros state_time = 0;
  Micros prev_state_time = 0;  ///< 0: no previous state
  Execution exec;
  std::string node_id;  ///< where it runs or ran
  std::string pool_id;
  int required_slots = 1;
  int max_retries = 0;
  int64_t max_wall_us = -1;               ///< -1: unlimited
  int64_t retention_us = -1;              ///< -1: the default (7 days)
  std::unique_ptr<nlohmann::json> extra;  ///< other properties as given, or null
  std::vector<Subtask> subtasks;
  bool engine_started = false;  ///< a run exists in the local engine
  int engine_generation = 0;    ///< bumps on requeue, to name a fresh engine run
  bool moving_files = false;    ///< its resourceFiles or outputFiles are on the way (FileMover)
};

/// The job preparation and release tasks' runs on one node.
struct PrepRelease {
  Execution prep;
  bool prep_running = false;
  Execution release;
  bool release_running = false;
  bool release_started = false;
};

/// CloudJob.
struct JobEntity : Versioned {
  std::string id;
  nlohmann::json spec;  ///< writable properties as given
  JobState state = JobState::Active;
  JobState prev_state = JobState::Active;
  Micros state_time = 0;
  Micros prev_state_time = 0;
  Micros start = 0;
  Micros end = 0;
  std::string terminate_reason;
  std::string pool_id;
  std::map<std::string, TaskEntity> tasks;  ///< by id; lists page in id order
  std::set<std::string> pending;            ///< active tasks waiting for a slot
  std::set<std::string> running;
  std::map<std::string, PrepRelease> nodes;  ///< by node id: where prep/release ran
};

}  // namespace trainyard::emu
