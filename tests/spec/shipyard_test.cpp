// Shipyard jobs.yaml: defaults, constraints, dependencies, multi-instance, merge task, sweeps.
#include "spec/shipyard.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fstream>
#include <sstream>
#include <string>

namespace trainyard::spec::shipyard_test {
namespace {

std::string fixture(const std::string& name) {
  std::ifstream in(std::string(TRAINYARD_SOURCE_DIR) + "/tests/fixtures/spec/shipyard/" + name);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<JobSpec> parse_ok(const std::string& name, ShipyardOptions opts = {}) {
  auto r = parse_shipyard_jobs(fixture(name), name, opts);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().message);
  return r.ok() ? *r : std::vector<JobSpec>{};
}

bool has_unmapped(const JobSpec& s, const std::string& needle) {
  for (const auto& u : s.unmapped) {
    if (u.what.find(needle) != std::string::npos || u.place.find(needle) != std::string::npos) {
      return true;
    }
  }
  return false;
}

TEST(ShipyardTest, BasicJobFields) {
  auto jobs = parse_ok("basic.yaml");
  ASSERT_EQ(jobs.size(), 2u);
  const SpecJob& job = jobs[0].job;
  EXPECT_EQ(job.id, "train-job");
  EXPECT_EQ(job.priority, 10);
  EXPECT_EQ(job.onAllTasksComplete, "terminatejob");
  ASSERT_TRUE(job.constraints);
  EXPECT_EQ(job.constraints->maxWallClockTime, std::chrono::hours(48));
  EXPECT_EQ(job.constraints->maxTaskRetryCount, 1);
  ASSERT_EQ(job.commonEnvironmentSettings.size(), 2u);
  EXPECT_EQ(job.commonEnvironmentSettings[1].name, "EPOCHS");
  EXPECT_EQ(job.commonEnvironmentSettings[1].value, "10");
  EXPECT_EQ(job.usesTaskDependencies, true);
  EXPECT_TRUE(has_unmapped(jobs[0], "shm_size"));
  EXPECT_TRUE(has_unmapped(jobs[0], "infiniband"));
  EXPECT_EQ(jobs[1].tasks.at(0).id, "task-00000");
}

TEST(ShipyardTest, DefaultIdsCountAcrossTheJob) {
  auto jobs = parse_ok("basic.yaml");
  const auto& t = jobs.at(0).tasks;
  ASSERT_EQ(t.size(), 5u);
  EXPECT_EQ(t[0].id, "task-00000");
  EXPECT_EQ(t[1].id, "train");
  EXPECT_EQ(t[2].id, "task-00001");
  EXPECT_EQ(t[3].id, "task-00002");
  EXPECT_EQ(t[4].id, "merge-task-00000");
  EXPECT_EQ(t[0].origin, "basic.yaml:13:5");
}

TEST(ShipyardTest, TaskConstraintsGpusAndContainer) {
  const auto t = parse_ok("basic.yaml").at(0).tasks;
  ASSERT_TRUE(t[0].constraints);
  EXPECT_EQ(t[0].constraints->maxWallClockTime, std::chrono::minutes(90));
  EXPECT_EQ(t[0].constraints->maxTaskRetryCount, 3);
  ASSERT_TRUE(t[0].containerSettings);
  EXPECT_EQ(t[0].containerSettings->imageName, "pytorch/pytorch:latest");
  EXPECT_EQ(t[1].requiredSlots, 2);
  EXPECT_FALSE(t[2].requiredSlots.has_value());
  EXPECT_EQ(t[2].constraints->retentionTime, std::chrono::hours(7 * 24));
  EXPECT_EQ(t[1].environmentSettings.at(0).value, "0.01");
  EXPECT_TRUE(has_unmapped(parse_ok("basic.yaml").at(0), "gpu: true"));
}

TEST(ShipyardTest, DependenciesAndMergeTask) {
  const auto t = parse_ok("basic.yaml").at(0).tasks;
  ASSERT_TRUE(t[1].dependsOn);
  EXPECT_EQ(t[1].dependsOn->taskIds, std::vector<std::string>{"task-00000"});
  ASSERT_TRUE(t[2].dependsOn);
  ASSERT_EQ(t[2].dependsOn->taskIdRanges.size(), 1u);
  EXPECT_EQ(t[2].dependsOn->taskIdRanges[0].start, 1);
  EXPECT_EQ(t[2].dependsOn->taskIdRanges[0].end, 5);
  ASSERT_TRUE(t[4].dependsOn);
  EXPECT_EQ(t[4].dependsOn->taskIds,
            (std::vector<std::string>{"task-00000", "train", "task-00001", "task-00002"}));
}

TEST(ShipyardTest, MultiInstance) {
  auto jobs = parse_ok("basic.yaml");
  const auto& mi = jobs.at(0).tasks[3].multiInstanceSettings;
  ASSERT_TRUE(mi);
  EXPECT_EQ(mi->numberOfInstances, 4);
  EXPECT_EQ(mi->coordinationCommandLine, "/usr/sbin/sshd -D");
  ASSERT_EQ(mi->commonResourceFiles.size(), 1u);
  EXPECT_EQ(
      mi->commonResourceFiles[0].text,
      R"({"fileMode":"0644","filePath":"hosts.txt","httpUrl":"https://acct.blob.core.windows.net/c/hosts.txt"})");
  EXPECT_TRUE(has_unmapped(jobs[0], "pre_execution_command"));
}

const char* kPoolSized = R"(job_specifications:
- id: j
  tasks:
  - command: mpirun train
    multi_instance:
      num_instances: pool_current_dedicated
)";

TEST(ShipyardTest, MultiInstancePoolSizeNeedsTheOption) {
  auto bad = parse_shipyard_jobs(kPoolSized, "jobs.yaml", {});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "jobs.yaml:6:22: /job_specifications/0/tasks/0/multi_instance/num_instances: "
            "pool_current_dedicated needs the pool's node count: pass pool_node_count");
  ShipyardOptions opts;
  opts.pool_node_count = 8;
  auto good = parse_shipyard_jobs(kPoolSized, "jobs.yaml", opts);
  ASSERT_TRUE(good.ok());
  EXPECT_EQ(good->at(0).tasks.at(0).multiInstanceSettings->numberOfInstances, 8);
}

TEST(ShipyardTest, SweepExpansionCountsAndCommands) {
  const auto jobs = parse_ok("sweeps.yaml");
  const auto& t = jobs.at(0).tasks;
  // product 3x2, iterables 2x3, combinations 6, with replacement 6, permutations 24, zip 2,
  // repeat 3, merge 1.
  ASSERT_EQ(t.size(), 6u + 6 + 6 + 6 + 24 + 2 + 3 + 1);
  EXPECT_EQ(t[0].commandLine, "train --a 0 --b 10");
  EXPECT_EQ(t[1].commandLine, "train --a 0 --b 5");
  EXPECT_EQ(t[5].commandLine, "train --a 2 --b 5");
  EXPECT_EQ(t[7].commandLine, "train --opt sgd --lr 1e-05");
  EXPECT_EQ(t[7].parameters.at(1), (std::pair<std::string, std::string>{"lr", "1e-05"}));
  EXPECT_EQ(t[12].commandLine, "pair a-b");
  EXPECT_EQ(t[18].commandLine, "pair a-a");
  EXPECT_EQ(t[24].commandLine, "perm abc");
  EXPECT_EQ(t[48].commandLine, "zip 1 x {literal}");
  EXPECT_EQ(t[50].commandLine, "same {} every time");  // repeat does not format
  EXPECT_EQ(t[0].id, "task-00000");
  EXPECT_EQ(t[52].id, "task-00052");
  EXPECT_EQ(t.back().id, "merge-task-00000");
  EXPECT_EQ(t.back().dependsOn->taskIds.size(), 53u);
}

TEST(ShipyardTest, LargeProductFixture) {
  const auto jobs = parse_ok("large_product.yaml");
  const auto& t = jobs.at(0).tasks;
  ASSERT_EQ(t.size(), 10000u);
  EXPECT_EQ(t.front().id, "run-000000");
  EXPECT_EQ(t.back().id, "run-009999");
  EXPECT_EQ(t.back().commandLine, "python train.py --layers 100 --width 990");
  EXPECT_EQ(t[123].constraints->maxWallClockTime, std::chrono::minutes(10));
}

TEST(ShipyardTest, TimespanFormats) {
  EXPECT_EQ(*parse_shipyard_timespan("00:00:30"), std::chrono::seconds(30));
  EXPECT_EQ(*parse_shipyard_timespan("1.02:03:04"), std::chrono::seconds(93784));
  EXPECT_EQ(*parse_shipyard_timespan("36:00:00"), std::chrono::hours(36));
  EXPECT_FALSE(parse_shipyard_timespan("1h").ok());
  EXPECT_FALSE(parse_shipyard_timespan("01:00").ok());
  EXPECT_FALSE(parse_shipyard_timespan("1.2.03:00:00").ok());
  EXPECT_FALSE(parse_shipyard_timespan("00:00:1.5").ok());
  EXPECT_FALSE(parse_shipyard_timespan("-1:00:00").ok());
}

TEST(ShipyardTest, WireJsonOfAParsedJob) {
  auto jobs = parse_ok("basic.yaml");
  const auto json = nlohmann::json::parse(to_wire_json(jobs.at(0)));
  EXPECT_EQ(json["tasks"][0]["constraints"]["maxWallClockTime"], "PT1H30M");
  EXPECT_EQ(json["job"]["constraints"]["maxWallClockTime"], "P2D");
  EXPECT_EQ(json["tasks"][2]["dependsOn"]["taskIdRanges"][0]["end"], 5);
  EXPECT_EQ(json["tasks"][3]["multiInstanceSettings"]["numberOfInstances"], 4);
  EXPECT_FALSE(json["unmapped"].empty());
}

}  // namespace
}  // namespace trainyard::spec::shipyard_test
