#include "core/enums.hpp"

#include <gtest/gtest.h>

namespace trainyard::enums_test {
namespace {

TEST(Enums, WireNamesAreLowercase) {
  EXPECT_EQ(to_wire(TaskState::Completed), "completed");
  EXPECT_EQ(to_wire(NodeState::WaitingForStartTask), "waitingforstarttask");
  EXPECT_EQ(to_wire(JobState::Terminating), "terminating");
  EXPECT_EQ(to_wire(ErrorCategory::UserError), "usererror");
}

TEST(Enums, ParseCaseInsensitively) {
  EXPECT_EQ(from_wire<TaskState>("Running"), TaskState::Running);
  EXPECT_EQ(from_wire<NodeState>("startTaskFailed"), NodeState::StartTaskFailed);
  EXPECT_EQ(from_wire<TaskState>("bogus"), std::nullopt);
}

TEST(Enums, EveryValueRoundTrips) {
  for (int i = 0; i <= static_cast<int>(NodeState::Deallocating); ++i) {
    auto s = static_cast<NodeState>(i);
    EXPECT_EQ(from_wire<NodeState>(to_wire(s)), s);
  }
  for (int i = 0; i <= static_cast<int>(JobState::Deleting); ++i) {
    auto s = static_cast<JobState>(i);
    EXPECT_EQ(from_wire<JobState>(to_wire(s)), s);
  }
}

}  // namespace
}  // namespace trainyard::enums_test
