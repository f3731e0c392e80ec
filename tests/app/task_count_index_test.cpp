// The Tasks pane's in-memory count agrees with the store's count and with counts by hand, over
// the fixture's resnet-sweep job: lr-0001 (done, exit 0, "baseline"), lr-0003 (failed, exit 1),
// lr-0010 (running), lr-0030 (active); every command is "python3 train.py --lr 0.0NN…".
#include "../../app/src/task_count_index.hpp"

#include <gtest/gtest.h>

#include "tui_fixture.hpp"

namespace trainyard {
namespace {

using C = TaskCondition;

class TaskCountIndexTest : public ::testing::Test {
 protected:
  ManualClock clock_{apptest::kFixtureNow};
  apptest::TuiFixture fixture_{clock_};
  Store& store() { return *fixture_.ctx().store; }

  /// The index's count, checked against the store's.
  int64_t count(TaskQuery q) {
    q.account = kLocalAccount;
    q.job = "resnet-sweep";
    auto index = TaskCountIndex::read(store(), q.account, q.job);
    EXPECT_TRUE(index) << index.error().message;
    if (!index) return -1;
    EXPECT_EQ(index->size(), 4u);
    EXPECT_TRUE(TaskCountIndex::answers(q));
    auto stored = store().count_tasks(q);
    EXPECT_TRUE(stored);
    int64_t n = index->count(q);
    EXPECT_EQ(n, stored.value_or(-1)) << q.substring;
    return n;
  }
};

TEST_F(TaskCountIndexTest, SubstringsCountEachTaskOnce) {
  EXPECT_EQ(count({}), 4);
  EXPECT_EQ(count({.substring = "LR"}), 4);  // in the id and twice in the command
  EXPECT_EQ(count({.substring = "BASE"}), 1);
  EXPECT_EQ(count({.substring = "0.0"}), 4);
  EXPECT_EQ(count({.substring = "line'"}), 1);
  EXPECT_EQ(count({.substring = "zzz"}), 0);
}

TEST_F(TaskCountIndexTest, ConditionsAsTheStoreAnswersThem) {
  EXPECT_EQ(count({.conditions = {{C::Field::Failed}}}), 1);
  EXPECT_EQ(count({.conditions = {{C::Field::ExitCode, C::Cmp::Ne, 0}}}), 1);
  EXPECT_EQ(count({.conditions = {{C::Field::ExitCode, C::Cmp::Eq, 0, "", true}}}), 3);
  EXPECT_EQ(count({.conditions = {{C::Field::StateRank, C::Cmp::Lt, 3}}}), 2);
  EXPECT_EQ(
      count({.substring = "train", .conditions = {{C::Field::Failed, C::Cmp::Eq, 0, "", true}}}),
      3);
  // "0.010" holds "0.01"; "0.001", "0.003" and "0.030" do not.
  EXPECT_EQ(count({.conditions = {{C::Field::Text, C::Cmp::Eq, 0, "0.01", true}}}), 3);
}

TEST_F(TaskCountIndexTest, NonAsciiTextIsLeftToTheStore) {
  EXPECT_FALSE(TaskCountIndex::answers({.substring = "\xc3\xa9t\xc3\xa9"}));
  EXPECT_FALSE(
      TaskCountIndex::answers({.conditions = {{C::Field::Text, C::Cmp::Eq, 0, "\xc3\xa9"}}}));
  EXPECT_TRUE(TaskCountIndex::answers({.substring = "ascii"}));
}

}  // namespace
}  // namespace trainyard
