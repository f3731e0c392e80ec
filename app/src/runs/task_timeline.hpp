// Internal: a task's timeline (queued, started, retried, requeued, completed) from the state
// changes the store recorded, and its lines as the Detail pane shows them.
#pragma once

#include <string>
#include <vector>

#include "core/entities.hpp"
#include "store/store.hpp"

namespace trainyard {

/// One step of a task's life.
struct TimelineEvent {
  Timestamp at;
  std::string label;  ///< `queued`, `started`, `retried (1)`, `requeued (2)`, `completed`
};

/// The steps `history` (oldest first) records: the first row is `queued` (or the state the task
/// was first seen in), a return to running with more retries `retried (N)`, a row with more
/// requeues `requeued (N)` (a node preempted or removed), else the state it entered; the last
/// completion says `failed` or `succeeded` when `result` is known.
std::vector<TimelineEvent> timeline_events(const std::vector<StateChange>& history,
                                           std::optional<TaskResult> result);

/// The events as `HH:MM:SS label` joined by ` → `, wrapped into lines of `width` columns,
/// at most `max_lines`: when they do not fit, the earliest go and the first line starts with
/// `+N earlier → `.
std::vector<std::string> timeline_lines(const std::vector<TimelineEvent>& events, int width,
                                        int max_lines);

}  // namespace trainyard
