#include "core/enums.hpp"

#include <array>
#include <cctype>

#include "core/text.hpp"

namespace trainyard {
namespace {

constexpr std::array kTaskStates{"active", "preparing", "running", "completed"};
constexpr std::array kJobStates{"active",      "disabling", "disabled", "enabling",
                                "terminating", "completed", "deleting"};
constexpr std::array kPoolStates{"active", "deleting"};
constexpr std::array kAllocationStates{"steady", "resizing", "stopping"};
constexpr std::array kNodeStates{
    "idle",      "rebooting",           "reimaging",       "running",     "unusable",    "creating",
    "starting",  "waitingforstarttask", "starttaskfailed", "unknown",     "leavingpool", "offline",
    "preempted", "upgradingos",         "deallocated",     "deallocating"};
constexpr std::array kSchedulingStates{"enabled", "disabled"};
constexpr std::array kTaskResults{"success", "failure"};
constexpr std::array kErrorCategories{"usererror", "servererror"};

template <typename E, size_t N>
std::optional<E> lookup(const std::array<const char*, N>& names, std::string_view text) {
  for (size_t i = 0; i < N; ++i) {
    if (iequals(names[i], text)) return static_cast<E>(i);
  }
  return std::nullopt;
}

}  // namespace

std::string_view to_wire(TaskState s) {
  return kTaskStates[static_cast<size_t>(s)];
}
std::string_view to_wire(JobState s) {
  return kJobStates[static_cast<size_t>(s)];
}
std::string_view to_wire(PoolState s) {
  return kPoolStates[static_cast<size_t>(s)];
}
std::string_view to_wire(AllocationState s) {
  return kAllocationStates[static_cast<size_t>(s)];
}
std::string_view to_wire(NodeState s) {
  return kNodeStates[static_cast<size_t>(s)];
}
std::string_view to_wire(SchedulingState s) {
  return kSchedulingStates[static_cast<size_t>(s)];
}
std::string_view to_wire(TaskResult s) {
  return kTaskResults[static_cast<size_t>(s)];
}
std::string_view to_wire(ErrorCategory s) {
  return kErrorCategories[static_cast<size_t>(s)];
}

template <>
std::optional<TaskState> from_wire<TaskState>(std::string_view t) {
  return lookup<TaskState>(kTaskStates, t);
}
template <>
std::optional<JobState> from_wire<JobState>(std::string_view t) {
  return lookup<JobState>(kJobStates, t);
}
template <>
std::optional<PoolState> from_wire<PoolState>(std::string_view t) {
  return lookup<PoolState>(kPoolStates, t);
}
template <>
std::optional<AllocationState> from_wire<AllocationState>(std::string_view t) {
  return lookup<AllocationState>(kAllocationStates, t);
}
template <>
std::optional<NodeState> from_wire<NodeState>(std::string_view t) {
  return lookup<NodeState>(kNodeStates, t);
}
template <>
std::optional<SchedulingState> from_wire<SchedulingState>(std::string_view t) {
  return lookup<SchedulingState>(kSchedulingStates, t);
}
template <>
std::optional<TaskResult> from_wire<TaskResult>(std::string_view t) {
  return lookup<TaskResult>(kTaskResults, t);
}
template <>
std::optional<ErrorCategory> from_wire<ErrorCategory>(std::string_view t) {
  return lookup<ErrorCategory>(kErrorCategories, t);
}

}  // namespace trainyard
