// The sweep view on an emulator account ranks by each run's last lines: opening it reads the
// logs the cache lacks (tasks nobody opened) before the table is trusted.
#include <gtest/gtest.h>

#include "tui_batch_fixture.hpp"

namespace trainyard::tui_sweep_batch_test {
namespace {

using apptest::TuiBatch;

TEST_F(TuiBatch, TheSweepViewReadsUnreadLogsAndRanksByTheLastLines) {
  auto c = open_client();
  auto job = c->call("POST", "/jobs", {},
                     nlohmann::json{{"id", "cb"}, {"poolInfo", {{"poolId", "seed-gpu"}}}}.dump());
  ASSERT_TRUE(job.ok()) << job.error().message;
  // steady ends at 0.40; overfit is best at 0.35 but ends at 0.45.
  for (auto [id, values] :
       {std::pair{"steady", "0.9 0.6 0.45 0.40"}, std::pair{"overfit", "0.9 0.5 0.35 0.45"}}) {
    std::string cmd = std::string("sh -c 'for v in ") + values + "; do echo val_loss=$v; done'";
    ASSERT_TRUE(c->add_task("cb", {{"id", id}, {"commandLine", cmd}}).ok());
  }
  ASSERT_TRUE(eventually([&] {
    auto a = azure::get_task(*c, "cb", "steady");
    auto b = azure::get_task(*c, "cb", "overfit");
    return a && b && a->state == TaskState::Completed && b->state == TaskState::Completed;
  }));
  SyncScope scope{emu_.account(), AccountKind::Emulator, emu_.endpoint()};
  ASSERT_TRUE(full_sync(*fixture_.ctx().store, *c, scope).ok());
  open_batch("tasks", false, "cb");
  keys(":");
  type("sweep");
  keys("Enter");
  settled_and_pumped();  // the worker has read both tasks' logs into the cache, and said so
  EXPECT_NE(screen().find("best by final val_loss"), std::string::npos) << screen();
  EXPECT_NE(screen().find("steady 0.4"), std::string::npos) << screen();
  // 4 + 4 lines of `val_loss=0.x\n`: 13 + 13 + 14 + 14 bytes each.
  EXPECT_NE(screen().find("sweep: read 108 B of logs of 2 task(s) of cb"), std::string::npos)
      << screen();
}

// The Compare pane reads its runs' unread logs too: one run marked with `v`, 54 bytes read.
TEST_F(TuiBatch, TheCompareViewReadsItsRunsUnreadLogs) {
  auto c = open_client();
  auto job = c->call("POST", "/jobs", {},
                     nlohmann::json{{"id", "cb"}, {"poolInfo", {{"poolId", "seed-gpu"}}}}.dump());
  ASSERT_TRUE(job.ok()) << job.error().message;
  const std::string cmd = "sh -c 'for v in 0.9 0.6 0.45 0.40; do echo val_loss=$v; done'";
  ASSERT_TRUE(c->add_task("cb", {{"id", "steady"}, {"commandLine", cmd}}).ok());
  ASSERT_TRUE(eventually([&] {
    auto t = azure::get_task(*c, "cb", "steady");
    return t && t->state == TaskState::Completed;
  }));
  SyncScope scope{emu_.account(), AccountKind::Emulator, emu_.endpoint()};
  ASSERT_TRUE(full_sync(*fixture_.ctx().store, *c, scope).ok());
  open_batch("tasks", false, "cb");
  keys("v :");
  type("compare");
  keys("Enter");
  settled_and_pumped();
  EXPECT_NE(screen().find("compare: read 54 B of logs of 1 run(s)"), std::string::npos) << screen();
  EXPECT_NE(screen().find("0.4"), std::string::npos) << screen();
}

}  // namespace
}  // namespace trainyard::tui_sweep_batch_test
