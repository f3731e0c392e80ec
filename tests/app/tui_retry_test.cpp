// `a` on a finished local run retries it: the same task, queued again as a new attempt.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "local/task_environment.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_retry_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

// The fixture's failed lr-0003 as the engine leaves a finished run: its record and command.
void give_run_record(AppContext& ctx) {
  auto paths = run_paths(ctx.data_dir, "resnet-sweep", "lr-0003");
  std::filesystem::create_directories(paths.dir);
  std::ofstream(paths.command) << "python3 train.py --lr 0.003\n";
  std::ofstream(paths.stdout_txt) << "first attempt\n";
  LocalRun run;
  run.job = "resnet-sweep";
  run.task = "lr-0003";
  run.run_dir = paths.dir;
  run.workdir = "/";
  ASSERT_TRUE(ctx.store->upsert_local_run(run).ok());
}

TEST_F(TuiScreen, RetryKeyQueuesAFinishedLocalRunAsANewAttempt) {
  give_run_record(fixture_.ctx());
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0003");
  keys("a");
  auto t = fixture_.ctx().store->task(kLocalAccount, "resnet-sweep", "lr-0003");
  ASSERT_TRUE(t.ok() && t->has_value());
  // The fixture's one slot is held by the running lr-0010: the retry waits in the queue.
  EXPECT_EQ((*t)->state, TaskState::Active);
  EXPECT_FALSE((*t)->execution_info.exit_code.has_value());
  auto run = fixture_.ctx().store->local_run("resnet-sweep", "lr-0003");
  ASSERT_TRUE(run.ok() && run->has_value());
  EXPECT_EQ((*run)->attempt, 1);
  auto dir = run_paths(fixture_.ctx().data_dir, "resnet-sweep", "lr-0003").dir;
  EXPECT_TRUE(std::filesystem::exists(dir + "/stdout.attempt-0.txt"));
  auto frame = term_->last_frame().to_text();
  EXPECT_NE(frame.find("attempt 1"), std::string::npos) << frame;
}

TEST_F(TuiScreen, RetryKeyOnARunningLocalRunSaysWhyNot) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0010");
  keys("a");
  auto t = fixture_.ctx().store->task(kLocalAccount, "resnet-sweep", "lr-0010");
  ASSERT_TRUE(t.ok() && t->has_value());
  EXPECT_EQ((*t)->state, TaskState::Running);
  auto frame = term_->last_frame().to_text();
  EXPECT_NE(frame.find("only a finished run"), std::string::npos) << frame;
}

}  // namespace
}  // namespace trainyard::tui_retry_test
