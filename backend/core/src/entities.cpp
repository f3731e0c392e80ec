#include "core/entities.hpp"

namespace trainyard {

const char* to_string(AccountKind kind) {
  switch (kind) {
    case AccountKind::Local:
      return "local";
    case AccountKind::Batch:
      return "batch";
    case AccountKind::Emulator:
      return "emulator";
  }
  return "local";
}

std::string slots_text(const Task& t) {
  if (!t.multi_instance) return std::to_string(t.required_slots);
  return std::to_string(t.multi_instance->number_of_instances) + "x" +
         std::to_string(t.required_slots);
}

TaskOutcome task_outcome(const Task& t) {
  if (t.state != TaskState::Completed) return TaskOutcome::Unfinished;
  const auto& e = t.execution_info;
  if (e.result)
    return *e.result == TaskResult::Success ? TaskOutcome::Success : TaskOutcome::Failure;
  if (e.failure_info) return TaskOutcome::Failure;
  return e.exit_code == 0 ? TaskOutcome::Success : TaskOutcome::Failure;
}

std::string_view task_state_text(const Task& t) {
  return task_outcome(t) == TaskOutcome::Failure ? "failed" : to_wire(t.state);
}

}  // namespace trainyard
