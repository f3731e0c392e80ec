// Narrow screens keep what identifies a row: low-priority columns drop first, an id too long
// for its column is cut in the middle (its distinguishing end stays), a number is never cut.
#include <gtest/gtest.h>

#include <string>

#include "tui_screen.hpp"

namespace trainyard {
namespace {

using apptest::kFixtureNow;
using apptest::TuiScreen;

class TuiNarrow : public TuiScreen {
 protected:
  void add_runs() {
    auto& store = *fixture_.ctx().store;
    Job j;
    j.account = kLocalAccount;
    j.id = "long-ids";
    j.pool_id = "local";
    j.creation_time = kFixtureNow - std::chrono::hours(1);
    ASSERT_TRUE(store.upsert_job(j));
    for (int i = 1; i <= 3; ++i) {
      Task t;
      t.account = kLocalAccount;
      t.job_id = "long-ids";
      t.id = "experiment-resnet-000" + std::to_string(i);
      t.command_line = "python3 train.py --seed " + std::to_string(i);
      t.state = TaskState::Completed;
      t.creation_time = t.state_transition_time = kFixtureNow - std::chrono::minutes(30);
      ASSERT_TRUE(store.upsert_task(t));
    }
  }
};

TEST_F(TuiNarrow, At80ColumnsIdsAreWholeAndLowPriorityColumnsGoFirst) {
  add_runs();
  open({80, 24}, "tasks", "long-ids");
  EXPECT_NE(line_with("experiment-resnet-0002 "), "") << screen();
  EXPECT_NE(line_with("STATE"), "") << screen();
  EXPECT_EQ(line_with("DISK"), "") << screen();  // the first to go
}

TEST_F(TuiNarrow, At30ColumnsAnIdKeepsItsDistinguishingEnd) {
  add_runs();
  open({30, 12}, "tasks", "long-ids");
  auto row = line_with("-0002");
  EXPECT_NE(row, "") << screen();
  EXPECT_NE(row.find("…-0002"), std::string::npos) << row;
  EXPECT_NE(line_with("…-0001"), "") << screen();
  EXPECT_NE(line_with("…-0003"), "") << screen();
}

}  // namespace
}  // namespace trainyard
