#include "model.hpp"

namespace trainyard::emu {

const char* wire(PoolState s) {
  return s == PoolState::Active ? "active" : "deleting";
}

const char* wire(AllocState s) {
  switch (s) {
    case AllocState::Steady:
      return "steady";
    case AllocState::Resizing:
      return "resizing";
    case AllocState::Stopping:
      return "stopping";
  }
  return "steady";
}

const char* wire(NodeState s) {
  static const char* const kNames[] = {
      "creating",  "starting",  "waitingforstarttask", "starttaskfailed", "idle",     "running",
      "rebooting", "reimaging", "preempted",           "leavingpool",     "unusable", "offline"};
  return kNames[static_cast<int>(s)];
}

const char* wire(JobState s) {
  static const char* const kNames[] = {"active",      "disabling", "disabled", "enabling",
                                       "terminating", "completed", "deleting"};
  return kNames[static_cast<int>(s)];
}

const char* wire(TaskState s) {
  static const char* const kNames[] = {"active", "preparing", "running", "completed"};
  return kNames[static_cast<int>(s)];
}

const char* wire(TaskResult r) {
  return r == TaskResult::Failure ? "failure" : "success";
}

}  // namespace trainyard::emu
