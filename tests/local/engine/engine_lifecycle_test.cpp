// The local engine with real processes: exit codes, signals, retries, limits, environment.
#include "engine_fixture.hpp"

namespace trainyard::test {
namespace {

TEST_F(EngineTest, SuccessRecordsExitCodeAndStates) {
  submit(request("ok", "echo hello; echo oops >&2"));
  auto t = wait_done("ok");
  EXPECT_EQ(t.execution_info.result, TaskResult::Success);
  EXPECT_EQ(t.execution_info.exit_code, 0);
  EXPECT_TRUE(t.execution_info.start_time && t.execution_info.end_time);
  auto paths = run_paths(dir_, "j", "ok");
  EXPECT_EQ(read(paths.stdout_txt), "hello\n");
  EXPECT_EQ(read(paths.stderr_txt), "oops\n");
  auto history = store_->state_history(kLocalAccount, "j", "ok");
  ASSERT_TRUE(history.ok());
  std::vector<TaskState> seen;
  for (const auto& h : *history) seen.push_back(h.to);
  EXPECT_EQ(seen, (std::vector<TaskState>{TaskState::Active, TaskState::Preparing,
                                          TaskState::Running, TaskState::Completed}));
}

TEST_F(EngineTest, FailureExitCode) {
  submit(request("bad", "exit 3"));
  auto t = wait_done("bad");
  EXPECT_EQ(t.execution_info.result, TaskResult::Failure);
  EXPECT_EQ(t.execution_info.exit_code, 3);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "FailureExitCode");
}

TEST_F(EngineTest, SignalIsRecordedAs128PlusN) {
  submit(request("sig", "kill -9 $$"));
  auto t = wait_done("sig");
  EXPECT_EQ(t.execution_info.exit_code, 137);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "TaskEndedBySignal");
}

TEST_F(EngineTest, RetriesKeepEarlierAttemptLogs) {
  auto counter = dir_ + "/count";
  auto r =
      request("retry", "n=$(cat " + counter + " 2>/dev/null || echo 0); n=$((n+1)); echo $n > " +
                           counter + "; echo attempt $n; [ $n -ge 3 ]");
  r.max_retries = 2;
  submit(r);
  auto t = wait_done("retry");
  EXPECT_EQ(t.execution_info.result, TaskResult::Success);
  EXPECT_EQ(t.execution_info.retry_count, 2);
  EXPECT_EQ(read(dir_ + "/runs/j/retry/stdout.attempt-0.txt"), "attempt 1\n");
  EXPECT_EQ(read(dir_ + "/runs/j/retry/stdout.attempt-1.txt"), "attempt 2\n");
  EXPECT_EQ(read(dir_ + "/runs/j/retry/stdout.txt"), "attempt 3\n");
}

TEST_F(EngineTest, RetriesRunOut) {
  auto r = request("never", "exit 1");
  r.max_retries = 1;
  submit(r);
  auto t = wait_done("never");
  EXPECT_EQ(t.execution_info.result, TaskResult::Failure);
  EXPECT_EQ(t.execution_info.retry_count, 1);
}

TEST_F(EngineTest, WallClockLimitKillsTheGroup) {
  auto r = request("slow", "sleep 60 & sleep 60");
  r.max_wall = std::chrono::seconds(1);
  submit(r);
  auto t = wait_done("slow", 20s);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "MaxWallClockTimeExceeded");
  auto run = run_of("slow");
  ASSERT_TRUE(run);
  EXPECT_FALSE(group_alive(static_cast<pid_t>(run->pgid)));
}

TEST_F(EngineTest, EnvironmentHasBatchVariablesAndNoSecrets) {
  setenv("AZURE_BATCH_ACCESS_KEY", "c2VjcmV0", 1);
  setenv("TY_SUBMITTER_VAR", "kept", 1);
  auto r = request("env", "env | sort; pwd");
  r.environment_settings = {{"MY_SETTING", "42"}};
  unsetenv("TY_SUBMITTER_VAR");
  submit(r);
  unsetenv("AZURE_BATCH_ACCESS_KEY");
  wait_done("env");
  auto out = read(run_paths(dir_, "j", "env").stdout_txt);
  EXPECT_NE(out.find("AZ_BATCH_JOB_ID=j\n"), std::string::npos);
  EXPECT_NE(out.find("AZ_BATCH_TASK_ID=env\n"), std::string::npos);
  EXPECT_NE(out.find("AZ_BATCH_TASK_DIR=" + dir_ + "/runs/j/env\n"), std::string::npos);
  EXPECT_NE(out.find("PYTHONUNBUFFERED=1\n"), std::string::npos);
  EXPECT_NE(out.find("MY_SETTING=42\n"), std::string::npos);
  EXPECT_NE(out.find("TY_SUBMITTER_VAR=kept\n"), std::string::npos);
  EXPECT_EQ(out.find("AZURE_BATCH_ACCESS_KEY"), std::string::npos);
  EXPECT_NE(out.find("\n" + dir_ + "\n"), std::string::npos) << "runs in the submit directory";
  EXPECT_EQ(read(run_paths(dir_, "j", "env").environment).find("c2VjcmV0"), std::string::npos);
}

TEST_F(EngineTest, RejectsMoreSlotsThanExist) {
  auto r = request("big", "true");
  r.gpus = 2;
  auto t = engine_->submit(r);
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::Usage);
}

TEST_F(EngineTest, RejectsDuplicateAndInvalidIds) {
  submit(request("dup", "true"));
  EXPECT_FALSE(engine_->submit(request("dup", "true")).ok());
  EXPECT_FALSE(engine_->submit(request("bad/id", "true")).ok());
  wait_done("dup");
}

TEST_F(EngineTest, RemoveDeletesFilesOfFinishedRuns) {
  submit(request("gone", "echo x"));
  wait_done("gone");
  ASSERT_TRUE(engine_->remove("j", "gone").ok());
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/runs/j/gone"));
  auto t = store_->task(kLocalAccount, "j", "gone");
  ASSERT_TRUE(t.ok());
  EXPECT_FALSE(t->has_value());
}

}  // namespace
}  // namespace trainyard::test

namespace trainyard::test {
namespace {

TEST_F(EngineTest, SubmitAllIsAllOrNothing) {
  std::vector<SubmitRequest> reqs{request("s1", "true"), request("s2", "true"),
                                  request("s1", "true")};
  auto r = engine_->submit_all(reqs);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("given twice"), std::string::npos);
  reqs.back() = request("s3", "");  // no command
  EXPECT_FALSE(engine_->submit_all(reqs).ok());
  auto count = store_->count_tasks(TaskQuery{kLocalAccount, "j"});
  ASSERT_TRUE(count.ok());
  EXPECT_EQ(*count, 0);
  EXPECT_FALSE(std::filesystem::exists(dir_ + "/runs/j/s1"));
}

TEST_F(EngineTest, SubmitAllRecordsASweepInOneGo) {
  std::vector<SubmitRequest> reqs;
  for (int i = 0; i < 300; ++i) reqs.push_back(request("sweep-" + std::to_string(i), "exit 0"));
  Job job;
  job.id = "j";
  job.display_name = "a sweep";
  auto r = engine_->submit_all(reqs, job);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->size(), 300u);
  auto stored = store_->job(kLocalAccount, "j");
  ASSERT_TRUE(stored.ok() && stored->has_value());
  EXPECT_EQ((*stored)->display_name, "a sweep");
  // Stop the queue draining so TearDown does not wait for 300 runs.
  for (int i = 0; i < 300; ++i) (void)engine_->request_stop("j", "sweep-" + std::to_string(i));
  for (int i = 0; i < 300; ++i) wait_done("sweep-" + std::to_string(i));
}

}  // namespace
}  // namespace trainyard::test
