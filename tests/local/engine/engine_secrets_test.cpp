// Secrets reach no task, no supervisor and no run file that outlives the run.
#include "engine_fixture.hpp"

namespace trainyard::test::engine_secrets_test {
namespace {

constexpr const char* kSecretValues[] = {"fixed-secret-1", "fixed-secret-2", "configured-secret-3"};

size_t count_of(const std::string& text, const std::string& needle) {
  size_t n = 0;
  for (auto at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
  return n;
}

class SecretsTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    setenv("AZURE_BATCH_ACCESS_KEY", kSecretValues[0], 1);
    setenv("AZURE_CLIENT_SECRET", kSecretValues[1], 1);
    setenv("TY_CONFIGURED_KEY", kSecretValues[2], 1);
    setenv("TY_PLAIN_VAR", "kept", 1);
    // What the app passes for a config.json account whose keyEnv is TY_CONFIGURED_KEY.
    config_.secret_variables = {"TY_CONFIGURED_KEY"};
    engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  }
  void TearDown() override {
    for (const char* n :
         {"AZURE_BATCH_ACCESS_KEY", "AZURE_CLIENT_SECRET", "TY_CONFIGURED_KEY", "TY_PLAIN_VAR"})
      unsetenv(n);
    EngineTest::TearDown();
  }
};

TEST_F(SecretsTest, NeitherTheTaskNorItsSupervisorHoldsASecret) {
  // The task reads its own environment and its parent's (the supervisor's), as a hostile task
  // would; the plain variable shows up once in each, so both were read.
  submit(request("peek", "env; tr '\\0' '\\n' < /proc/$PPID/environ"));
  auto t = wait_done("peek");
  EXPECT_EQ(t.execution_info.result, TaskResult::Success);
  auto out = read(run_paths(dir_, "j", "peek").stdout_txt);
  EXPECT_EQ(count_of(out, "TY_PLAIN_VAR=kept\n"), 2u) << out;
  for (const char* secret : kSecretValues) EXPECT_EQ(out.find(secret), std::string::npos) << secret;
  EXPECT_EQ(out.find("TY_CONFIGURED_KEY"), std::string::npos);
}

TEST_F(SecretsTest, TheRunFilesHoldNoConfiguredSecret) {
  submit(request("file", "sleep 30"));
  wait_state("file", TaskState::Running);
  auto env_file = read(run_paths(dir_, "j", "file").environment);
  EXPECT_NE(env_file.find("TY_PLAIN_VAR=kept"), std::string::npos);
  for (const char* secret : kSecretValues)
    EXPECT_EQ(env_file.find(secret), std::string::npos) << secret;
  ASSERT_TRUE(engine_->request_stop("j", "file", std::chrono::seconds(1)).ok());
  wait_done("file");
}

bool exists(const std::string& path) {
  return std::filesystem::exists(path);
}

TEST_F(EngineTest, TheEnvironmentFileIsRemovedHoweverTheRunEnds) {
  submit(request("lost", "sleep 30"));
  submit(request("queued", "true"));  // one slot: it waits
  auto after = request("after", "true");
  after.after = {"j/queued"};
  submit(after);
  ASSERT_TRUE(exists(run_paths(dir_, "j", "queued").environment));
  // Stopped before it started; its dependent then fails without starting.
  ASSERT_TRUE(engine_->request_stop("j", "queued").ok());
  EXPECT_FALSE(exists(run_paths(dir_, "j", "queued").environment));
  ASSERT_TRUE(engine_->schedule().ok());
  EXPECT_EQ(wait_done("after").execution_info.failure_info->code, "TaskDependencyFailed");
  EXPECT_FALSE(exists(run_paths(dir_, "j", "after").environment));
  // The supervisor and the task both gone: the next scheduling pass records SupervisorLost.
  wait_state("lost", TaskState::Running);
  auto run = run_of("lost");
  ASSERT_TRUE(run);
  ASSERT_TRUE(exists(run_paths(dir_, "j", "lost").environment));
  kill_supervisor_and_task(*run);
  ASSERT_TRUE(engine_->schedule().ok());
  EXPECT_EQ(wait_done("lost").execution_info.failure_info->code, "SupervisorLost");
  EXPECT_FALSE(exists(run_paths(dir_, "j", "lost").environment));
}

}  // namespace
}  // namespace trainyard::test::engine_secrets_test
