#include "task_timeline.hpp"

#include "widgets/text.hpp"

namespace trainyard {
namespace {

std::string entered(TaskState s, bool first) {
  switch (s) {
    case TaskState::Active:
      return first ? "queued" : "queued again";
    case TaskState::Preparing:
      return "preparing";
    case TaskState::Running:
      return "started";
    case TaskState::Completed:
      return "completed";
  }
  return std::string(to_wire(s));
}

std::string label_of(const StateChange& c, const StateChange* prev) {
  if (prev && c.requeue_count > prev->requeue_count)
    return "requeued (" + std::to_string(c.requeue_count) + ")";
  if (prev && c.retry_count > prev->retry_count && c.to != TaskState::Completed)
    return "retried (" + std::to_string(c.retry_count) + ")";
  return entered(c.to, prev == nullptr);
}

// The events from `first` on as lines of `width` (a line that goes on starts with `→`); empty
// when they take more than `max` lines.
std::vector<std::string> wrap_from(const std::vector<std::string>& parts, size_t first, int width,
                                   int max) {
  std::vector<std::string> lines;
  std::string line = first ? "+" + std::to_string(first) + " earlier" : "";
  for (size_t i = first; i < parts.size(); ++i) {
    if (line.empty()) {
      line = parts[i];
    } else if (text_width(line + " → " + parts[i]) <= width) {
      line += " → " + parts[i];
    } else {
      lines.push_back(std::move(line));
      line = "→ " + parts[i];
    }
  }
  if (!line.empty()) lines.push_back(line);
  if (static_cast<int>(lines.size()) > max) return {};
  return lines;
}

}  // namespace

std::vector<TimelineEvent> timeline_events(const std::vector<StateChange>& history,
                                           std::optional<TaskResult> result) {
  std::vector<TimelineEvent> out;
  for (size_t i = 0; i < history.size(); ++i) {
    const StateChange* prev = i ? &history[i - 1] : nullptr;
    std::string label = label_of(history[i], prev);
    bool last = i + 1 == history.size();
    if (last && history[i].to == TaskState::Completed && result)
      label = *result == TaskResult::Failure ? "failed" : "succeeded";
    out.push_back({history[i].at, std::move(label)});
  }
  return out;
}

std::vector<std::string> timeline_lines(const std::vector<TimelineEvent>& events, int width,
                                        int max_lines) {
  std::vector<std::string> parts;
  for (const auto& e : events) parts.push_back(format_clock_utc(e.at) + " " + e.label);
  for (size_t first = 0; first < parts.size(); ++first) {
    auto lines = wrap_from(parts, first, width, max_lines);
    if (!lines.empty()) return lines;
  }
  return {};
}

}  // namespace trainyard
