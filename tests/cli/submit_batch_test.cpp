// `submit FILE --account A`: jobs created with submittedBy, tasks added 100 per request, and a
// submission sent again adding only what is missing.
#include <gtest/gtest.h>

#include <fstream>
#include <map>

#include "batch_cli_fixture.hpp"

namespace trainyard::clitest::submit_batch_test {
namespace {

using nlohmann::json;
using SubmitBatch = BatchCli;

std::string spec_file(const std::string& dir, int tasks) {
  json spec{{"job", {{"id", "sweep"}, {"poolInfo", {{"poolId", "p"}}}}}, {"tasks", json::array()}};
  for (int i = 0; i < tasks; ++i)
    spec["tasks"].push_back({{"id", "t" + std::to_string(i)}, {"commandLine", "true"}});
  std::string path = dir + "/spec.json";
  std::ofstream(path) << spec.dump();
  return path;
}

int task_count(azure::BatchClient& c, const std::string& job) {
  auto tasks = c.tasks(job, "", "id");
  return tasks ? static_cast<int>(tasks->size()) : -1;
}

TEST_F(SubmitBatch, AddsTasksInCollectionsAndResumesWithoutDuplicates) {
  auto file = spec_file(root(), 250);
  auto r = tyb({"submit", file, "--account", emu_.account()});
  ASSERT_EQ(r.code, 0) << r.err << r.out;
  EXPECT_NE(r.out.find("sweep: 250 task(s) added in 3 request(s)"), std::string::npos) << r.out;
  auto job = client_->call("GET", "/jobs/sweep");
  ASSERT_TRUE(job.ok());
  EXPECT_NE(job->body.find("submittedBy"), std::string::npos);
  // An interrupted submission: one task gone, the whole file sent again.
  ASSERT_TRUE(client_->call("DELETE", "/jobs/sweep/tasks/t7").ok());
  auto again = tyb({"submit", file, "--account", emu_.account()});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("sweep: 1 task(s) added"), std::string::npos) << again.out;
  EXPECT_EQ(task_count(*client_, "sweep"), 250);
}

// A sweep sent again adds only the seeds the job lacks; the new ones continue the job's
// numbering (the grown spec numbers 44 task-00000, which the job has for seed 11).
TEST_F(SubmitBatch, AGrownSweepAddsOnlyTheNewSeedsWithTheNextIds) {
  auto spec = [&](const std::string& seeds) {
    std::string path = root() + "/sweep.yaml";
    std::ofstream(path) << "job_specifications:\n- id: sweep\n  tasks:\n"
                           "  - command: echo seed={}\n    task_factory:\n"
                           "      parametric_sweep:\n        product_iterables:\n        - "
                        << seeds << "\n";
    return path;
  };
  auto first = tyb({"submit", spec("[11, 22, 33]"), "--account", emu_.account(), "--pool", "p"});
  ASSERT_EQ(first.code, 0) << first.err;
  auto same = tyb({"submit", spec("[11, 22, 33]"), "--account", emu_.account(), "--pool", "p"});
  ASSERT_EQ(same.code, 0) << same.err;
  EXPECT_NE(same.out.find("sweep: 0 task(s) added"), std::string::npos) << same.out;
  auto grown =
      tyb({"submit", spec("[44, 11, 22, 33, 55]"), "--account", emu_.account(), "--pool", "p"});
  ASSERT_EQ(grown.code, 0) << grown.err;
  EXPECT_NE(grown.out.find("sweep: 2 task(s) added"), std::string::npos) << grown.out;
  auto tasks = client_->tasks("sweep", "", "id,commandLine");
  ASSERT_TRUE(tasks.ok());
  std::map<std::string, std::string> got;
  for (const auto& t : *tasks) got[t.id] = t.command_line;
  std::map<std::string, std::string> want{{"task-00000", "echo seed=11"},
                                          {"task-00001", "echo seed=22"},
                                          {"task-00002", "echo seed=33"},
                                          {"task-00003", "echo seed=44"},
                                          {"task-00004", "echo seed=55"}};
  EXPECT_EQ(got, want);
}

// One GET: a pool the account lacks is a warning before anything is sent.
TEST_F(SubmitBatch, DryRunWarnsOfAPoolTheAccountLacks) {
  auto file = spec_file(root(), 1);
  auto missing = tyb({"submit", file, "--account", emu_.account(), "--pool", "nope", "--dry-run"});
  ASSERT_EQ(missing.code, 0) << missing.err;
  EXPECT_EQ(missing.err, "trainyard: warning: sweep: pool nope does not exist on account " +
                             emu_.account() + "\n");
  auto there = tyb({"submit", file, "--account", emu_.account(), "--pool", "p", "--dry-run"});
  EXPECT_EQ(there.err, "");
  EXPECT_FALSE(client_->call("GET", "/jobs/sweep").ok()) << "a dry run sends nothing";
}

// Where `want` has a value, `got` has the same one (the service adds its defaults around it).
void expect_subset(const json& want, const json& got, const std::string& where) {
  if (want.is_object() && got.is_object()) {
    for (auto it = want.begin(); it != want.end(); ++it) {
      ASSERT_TRUE(got.contains(it.key())) << where << "/" << it.key() << " missing in " << got;
      expect_subset(it.value(), got[it.key()], where + "/" + it.key());
    }
    return;
  }
  EXPECT_EQ(want, got) << where;
}

// Each format: what `--dry-run --json` says would be sent is what the service then holds.
TEST_F(SubmitBatch, EveryFormatRoundTripsThroughTheService) {
  const std::string fixtures = TRAINYARD_SOURCE_DIR "/tests/fixtures/spec/";
  for (const char* file :
       {"batch/job_and_tasks.json", "batchai/pytorch.json", "shipyard/sweeps.yaml"}) {
    auto dry = ty({"submit", fixtures + file, "--pool", "p", "--dry-run", "--json"});
    ASSERT_EQ(dry.code, 0) << file << ": " << dry.err;
    auto plan = json::parse(dry.out);
    const std::string job = plan["job"]["id"];
    auto sent = tyb({"submit", fixtures + file, "--account", emu_.account(), "--pool", "p"});
    ASSERT_EQ(sent.code, 0) << file << ": " << sent.err;
    EXPECT_EQ(task_count(*client_, job), static_cast<int>(plan["tasks"].size())) << file;
    for (const auto& t : plan["tasks"]) {
      auto got = client_->call("GET", "/jobs/" + job + "/tasks/" + t["id"].get<std::string>());
      ASSERT_TRUE(got.ok()) << file << ": " << t["id"];
      expect_subset(t, json::parse(got->body),
                    std::string(file) + ":" + t["id"].get<std::string>());
    }
  }
}

TEST_F(SubmitBatch, ReadOnlySendsNothing) {
  auto r = tyb({"--readonly", "submit", spec_file(root(), 3), "--account", emu_.account()});
  EXPECT_EQ(r.code, 2);
  EXPECT_FALSE(client_->call("GET", "/jobs/sweep").ok());
}

}  // namespace
}  // namespace trainyard::clitest::submit_batch_test
