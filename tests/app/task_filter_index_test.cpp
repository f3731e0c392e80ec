// The Tasks pane's in-memory filter agrees with the store's count and list and with what is
// worked out by hand, over
// the fixture's resnet-sweep job: lr-0001 (done, exit 0, "baseline"), lr-0003 (failed, exit 1),
// lr-0010 (running), lr-0030 (active); every command is "python3 train.py --lr 0.0NN…".
#include "task_filter_index.hpp"

#include <gtest/gtest.h>

#include "tui_fixture.hpp"

namespace trainyard::task_filter_index_test {
namespace {

using C = TaskCondition;

class TaskFilterIndexTest : public ::testing::Test {
 protected:
  ManualClock clock_{apptest::kFixtureNow};
  apptest::TuiFixture fixture_{clock_};
  Store& store() { return *fixture_.ctx().store; }

  /// The index's count, checked against the store's.
  int64_t count(TaskQuery q, size_t tasks = 4) {
    q.account = kLocalAccount;
    q.job = "resnet-sweep";
    auto index = TaskFilterIndex::read(store(), q.account, q.job);
    EXPECT_TRUE(index) << index.error().message;
    if (!index) return -1;
    EXPECT_EQ(index->size(), tasks);
    EXPECT_TRUE(TaskFilterIndex::answers(q));
    auto stored = store().count_tasks(q);
    EXPECT_TRUE(stored);
    int64_t n = index->count(q);
    EXPECT_EQ(n, stored.value_or(-1)) << q.substring;
    return n;
  }

  /// The ids of the index's matching rows, checked against the store's list.
  std::vector<std::string> rows(TaskQuery q) {
    q.account = kLocalAccount;
    q.job = "resnet-sweep";
    auto index = TaskFilterIndex::read(store(), q.account, q.job);
    EXPECT_TRUE(index) << index.error().message;
    if (!index) return {};
    std::vector<std::string> ids;
    for (auto row : index->matching_rows(q)) ids.push_back(index->id(row));
    auto stored = store().tasks(q);
    EXPECT_TRUE(stored);
    std::vector<std::string> stored_ids;
    for (const auto& t : stored.value_or(std::vector<Task>{})) stored_ids.push_back(t.id);
    EXPECT_EQ(ids, stored_ids) << q.substring;
    return ids;
  }
};

TEST_F(TaskFilterIndexTest, SubstringsCountEachTaskOnce) {
  EXPECT_EQ(count({}), 4);
  EXPECT_EQ(count({.substring = "LR"}), 4);  // in the id and twice in the command
  EXPECT_EQ(count({.substring = "BASE"}), 1);
  EXPECT_EQ(count({.substring = "0.0"}), 4);
  EXPECT_EQ(count({.substring = "line'"}), 1);
  EXPECT_EQ(count({.substring = "zzz"}), 0);
}

TEST_F(TaskFilterIndexTest, ConditionsAsTheStoreAnswersThem) {
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

// The display order is state, creation time, id; the fixture's four tasks were all created at
// the same time: lr-0030 (active), lr-0010 (running), then lr-0001 and lr-0003 (completed).
TEST_F(TaskFilterIndexTest, MatchingRowsAreTheStoresListInDisplayOrder) {
  using Ids = std::vector<std::string>;
  EXPECT_EQ(rows({.substring = "train"}), (Ids{"lr-0030", "lr-0010", "lr-0001", "lr-0003"}));
  EXPECT_EQ(rows({.substring = "BASE"}), (Ids{"lr-0001"}));
  EXPECT_EQ(rows({.conditions = {{C::Field::ExitCode, C::Cmp::Ne, 0}}}), (Ids{"lr-0003"}));
  EXPECT_EQ(rows({.conditions = {{C::Field::StateRank, C::Cmp::Lt, 3}}}),
            (Ids{"lr-0030", "lr-0010"}));
  EXPECT_EQ(rows({.conditions = {{C::Field::Text, C::Cmp::Eq, 0, "0.01", true}}}),
            (Ids{"lr-0030", "lr-0001", "lr-0003"}));
  EXPECT_EQ(rows({.substring = "zzz"}), Ids{});
}

// Each order as the store sorts it, ties by id: lr-0010 and lr-0030 have no exit code (first
// ascending, last descending), lr-0001 exited 0 and lr-0003 1; lr-0003 was retried once.
TEST_F(TaskFilterIndexTest, EveryOrderAsTheStoreSortsIt) {
  using Ids = std::vector<std::string>;
  TaskQuery q{.substring = "lr", .order = TaskOrder::ExitCode};
  EXPECT_EQ(rows(q), (Ids{"lr-0010", "lr-0030", "lr-0001", "lr-0003"}));
  q.descending = true;
  EXPECT_EQ(rows(q), (Ids{"lr-0003", "lr-0001", "lr-0030", "lr-0010"}));
  q = {.substring = "lr", .order = TaskOrder::Id, .descending = true};
  EXPECT_EQ(rows(q), (Ids{"lr-0030", "lr-0010", "lr-0003", "lr-0001"}));
  q = {.substring = "lr", .order = TaskOrder::CommandLine};
  EXPECT_EQ(rows(q), (Ids{"lr-0001", "lr-0003", "lr-0010", "lr-0030"}));
  for (auto order : {TaskOrder::State, TaskOrder::Retries, TaskOrder::Requeues, TaskOrder::Slots})
    for (bool descending : {false, true}) rows({.order = order, .descending = descending});
}

// LIKE and the index fold ASCII case only: other text matches byte for byte. A NUL, which no
// field holds, is left to the store.
TEST_F(TaskFilterIndexTest, NonAsciiTextMatchesExactlyAsLikeDoes) {
  ASSERT_TRUE(store().upsert_task({.account = kLocalAccount,
                                   .job_id = "resnet-sweep",
                                   .id = "lr-\xc3\xa9t\xc3\xa9",
                                   .display_name = "\xc3\x89T\xc3\x89 Run"}));
  EXPECT_EQ(count({.substring = "\xc3\xa9t\xc3\xa9"}, 5), 1);
  EXPECT_EQ(count({.substring = "\xc3\xa9T\xc3\xa9"}, 5), 1);  // ASCII T folds
  EXPECT_EQ(count({.substring = "\xc3\x89t\xc3\x89 run"}, 5), 1);
  EXPECT_EQ(count({.substring = "\xc3\x89t\xc3\xa9"}, 5), 0);  // É is not é
  EXPECT_FALSE(TaskFilterIndex::answers({.substring = std::string("a\0b", 3)}));
  EXPECT_FALSE(TaskFilterIndex::answers(
      {.conditions = {{C::Field::Text, C::Cmp::Eq, 0, std::string("\0", 1)}}}));
}

}  // namespace
}  // namespace trainyard::task_filter_index_test
