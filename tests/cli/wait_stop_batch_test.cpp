// `run`, `wait`, `stop` and `rm --account A` on an emulator account: the same contracts as
// local runs.
#include <gtest/gtest.h>

#include <thread>

#include <nlohmann/json.hpp>

#include "../azure/emulator_process.hpp"
#include "azure/batch_client.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest {
namespace {

using nlohmann::json;

class WaitStopBatch : public Cli {
 protected:
  WaitStopBatch() {
    azure::BatchClientOptions o;
    o.account = emu_.account();
    o.endpoint = emu_.endpoint();
    client_ = std::make_unique<azure::BatchClient>(
        o, std::make_shared<azure::HttpClient>(),
        azure::shared_key_credential(emu_.account(), emu_.key()), clock_);
    post("/pools", {{"id", "p"}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", 1}});
    post("/jobs", {{"id", "j"}, {"poolInfo", {{"poolId", "p"}}}});
  }
  Outcome tyb(std::vector<std::string> args) {
    args.insert(args.begin(), {"--data-dir", data()});
    return bare(args,
                {"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=" + emu_.endpoint(),
                 "AZURE_BATCH_ACCESS_KEY=" + emu_.key()});
  }
  void post(const std::string& path, const json& body) {
    auto r = client_->call("POST", path, {}, body.dump(), {}, false);
    ASSERT_TRUE(r.ok()) << path << ": " << r.error().message;
  }
  void task(const std::string& id, const std::string& command) {
    ASSERT_TRUE(client_->add_task("j", {{"id", id}, {"commandLine", command}}).ok());
  }

  azuretest::EmulatorProcess emu_;
  SystemClock clock_;
  std::unique_ptr<azure::BatchClient> client_;
};

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
}  // namespace trainyard::clitest
