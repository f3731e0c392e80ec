// What a task's end does to its job when the job's onTaskFailure is
// `performexitoptionsjobaction`: the jobAction of the task's exitConditions, as Batch picks it.
// The local engine and the emulator both decide with it.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace trainyard {

/// ExitOptions.jobAction.
enum class ExitJobAction { None, Disable, Terminate };

/// How a task ended, as exit conditions look at it.
struct TaskEnd {
  std::optional<int> exit_code;  ///< none: the task never ran its command (a pre-processing error)
  bool failed = false;           ///< its result is failure (it has a failureInfo)
  std::string failure_code;      ///< failureInfo.code (`FileUploadMiscError`…)
};

/// The jobAction for `end` under `exit_conditions` (a task's exitConditions as JSON text; empty
/// or malformed: none given). Batch's order: the exit code in `exitCodes`, then in
/// `exitCodeRanges`; then, for a failure, `fileUploadError` or `preProcessingError` where that is
/// how it failed, then `default`. An exitOptions without a jobAction, and a failure that nothing
/// names, mean `terminate` (exit code 0: `none`); a success that nothing names is `none`.
ExitJobAction exit_job_action(std::string_view exit_conditions, const TaskEnd& end);

/// `none`, `disable` or `terminate`.
const char* to_string(ExitJobAction a);

}  // namespace trainyard
