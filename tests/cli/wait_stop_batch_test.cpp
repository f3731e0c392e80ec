// `run`, `wait`, `stop` and `rm --account A` on an emulator account: the same contracts as
// local runs.
#include <gtest/gtest.h>

#include <thread>

#include <nlohmann/json.hpp>

#include "batch_cli_fixture.hpp"

namespace trainyard::clitest::wait_stop_batch_test {
namespace {

using nlohmann::json;

using WaitStopBatch = BatchCli;

TEST_F(WaitStopBatch, WaitExitsWithTheTasksExitCode) {
  task("ok", "/bin/sh -c 'sleep 0.5'");
  task("bad", "/bin/sh -c 'exit 7'");
  EXPECT_EQ(tyb({"wait", "--account", emu_.account(), "j/ok"}).code, 0);
  auto bad = tyb({"wait", "--account", emu_.account(), "j/bad"});
  EXPECT_EQ(bad.code, 7) << bad.err;
  auto missing = tyb({"wait", "--account", emu_.account(), "j/nope"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("no task j/nope in account"), std::string::npos) << missing.err;
}

TEST_F(WaitStopBatch, StopTerminatesAndWaits) {
  task("long", "/bin/sh -c 'sleep 60'");
  auto r = tyb({"stop", "--account", emu_.account(), "j/long"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("j/long stopped"), std::string::npos);
  auto t = client_->call("GET", "/jobs/j/tasks/long");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(json::parse(t->body)["state"], "completed");
}

TEST_F(WaitStopBatch, RmDeletesAndReadOnlyRefuses) {
  task("gone", "/bin/sh -c 'true'");
  auto refused = tyb({"--readonly", "rm", "--account", emu_.account(), "j/gone"});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("read-only"), std::string::npos) << refused.err;
  EXPECT_TRUE(client_->call("GET", "/jobs/j/tasks/gone").ok());
  auto r = tyb({"rm", "--account", emu_.account(), "j/gone"});
  EXPECT_EQ(r.code, 0) << r.err;
  EXPECT_FALSE(client_->call("GET", "/jobs/j/tasks/gone").ok());
}

TEST_F(WaitStopBatch, RunAddsATaskThenWaitGivesItsExitCode) {
  auto no_job = tyb({"run", "--account", emu_.account(), "--job", "fresh", "--", "true"});
  EXPECT_EQ(no_job.code, 2);
  EXPECT_NE(no_job.err.find("--pool"), std::string::npos) << no_job.err;
  auto r = tyb({"run", "--account", emu_.account(), "--job", "fresh", "--pool", "p", "--id", "t1",
                "--", "sh", "-c", "echo 'it works'; exit 3"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "fresh/t1\n");
  EXPECT_EQ(tyb({"wait", "--account", emu_.account(), "fresh/t1"}).code, 3);
  auto job = client_->call("GET", "/jobs/fresh");
  ASSERT_TRUE(job.ok());
  EXPECT_NE(job->body.find("submittedBy"), std::string::npos);
  auto local_only = tyb({"run", "--account", emu_.account(), "--gpu-ids", "0", "--", "true"});
  EXPECT_EQ(local_only.code, 2);
}

}  // namespace
}  // namespace trainyard::clitest::wait_stop_batch_test
