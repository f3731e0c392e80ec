// The documented subset of Batch autoscale formulas the emulator evaluates.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainyard::emu {

/// Longest formula Batch accepts, in characters ("cannot exceed 8 KB"; the SDKs' error-code
/// table says "The maximum length is 8192 characters"); longer ones fail AutoScaleFormulaTooLong.
inline constexpr std::size_t kAutoscaleFormulaMaxChars = 8192;
/// Most statements Batch accepts in one formula (the docs: "up to 100 statements").
inline constexpr int kAutoscaleMaxStatements = 100;

/// Samples of the pool's metrics a formula may read (the newest value; a formula's
/// GetSample/avg/max/min over them see this one value repeated).
struct AutoscaleInputs {
  int pending_tasks = 0;         ///< $PendingTasks: active + running
  int active_tasks = 0;          ///< $ActiveTasks
  int running_tasks = 0;         ///< $RunningTasks
  int current_dedicated = 0;     ///< $CurrentDedicatedNodes
  int current_low_priority = 0;  ///< $CurrentLowPriorityNodes
  /// What $TargetDedicatedNodes reads before the formula assigns it (the pool's present
  /// target); unset means current_dedicated.
  std::optional<int> target_dedicated;
  /// What $TargetLowPriorityNodes reads before the formula assigns it; unset means
  /// current_low_priority.
  std::optional<int> target_low_priority;
};

/// What an evaluation gives: the targets, Batch's `results` text, or a formula error.
struct AutoscaleOutcome {
  std::optional<int> target_dedicated;
  std::optional<int> target_low_priority;
  std::string
      results;  ///< `$TargetDedicatedNodes=2;$TargetLowPriorityNodes=0;…` as Batch writes it
  std::string error_code;     ///< empty on success, e.g. `AutoScalingFormulaSyntaxError`
  std::string error_message;  ///< one line naming the place in the formula
  /// Batch's fixed `error.message` for error_code (e.g. "Autoscale evaluation failed due to
  /// insufficient sample data"); error_message is then the `values` entry named "Message".
  std::string error_summary;
  /// $NodeDeallocationOption after the run: requeue (the default), terminate,
  /// taskcompletion or retaineddata.
  std::string node_deallocation_option = "requeue";
};

/// Evaluates `formula` (statements separated by `;` or new lines). Never throws.
AutoscaleOutcome evaluate_autoscale(std::string_view formula, const AutoscaleInputs& in);

/// One line naming the formula subset the emulator evaluates (for docs and error texts).
std::string_view autoscale_subset();

}  // namespace trainyard::emu
