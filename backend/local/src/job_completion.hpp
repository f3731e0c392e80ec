// Local-private: a local job's end, as Batch ends a job whose onAllTasksComplete is terminatejob.
#pragma once

#include <string>

#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// Completes local job `job` when it asks to (onAllTasksComplete `terminatejob`) and every task
/// of it has completed: its state becomes `completed` at `now`. Runs inside the caller's write.
Result<void> complete_job_when_done(Store& store, const std::string& job, Timestamp now);

/// A Conflict error when `job` has completed, as Batch's 409 JobCompleted: no task is added to
/// it, nor retried in it. `what` names the refused act.
Result<void> refuse_if_completed(const std::optional<Job>& job, const char* what);

/// refuse_if_completed of local job `job` as the store has it.
Result<void> refuse_if_job_completed(Store& store, const std::string& job, const char* what);

}  // namespace trainyard
