// Local-private: a local job's end, as Batch ends a job: when a task's failure asks for it
// (onTaskFailure `performexitoptionsjobaction` and the task's exitConditions), and when its last
// task completes (onAllTasksComplete `terminatejob`).
#pragma once

#include <string>

#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// What the end of task `done` (just completed, stored) does to its local job, at `now`:
///   - with onTaskFailure `performexitoptionsjobaction`, the jobAction of `exit_conditions` for how
///     it ended (local/exit_conditions.hpp): `terminate` completes the job (terminateReason
///     `TaskFailed`) and asks its running tasks to stop; `disable` disables it (its queued tasks
///     wait until it is enabled);
///   - with onAllTasksComplete `terminatejob`, a job whose every task has completed completes
///     (`AllTasksComplete`).
/// Runs inside the caller's write.
Result<void> end_job_after_task(Store& store, const Task& done, const std::string& exit_conditions,
                                Timestamp now);

/// A Conflict error when `job` has completed, as Batch's 409 JobCompleted: no task is added to
/// it, nor retried in it. `what` names the refused act.
Result<void> refuse_if_completed(const std::optional<Job>& job, const char* what);

/// refuse_if_completed of local job `job` as the store has it.
Result<void> refuse_if_job_completed(Store& store, const std::string& job, const char* what);

}  // namespace trainyard
