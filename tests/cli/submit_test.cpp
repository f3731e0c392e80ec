// `trainyard submit`: the dry-run JSON contract, bad specs creating nothing, local round trips.
#include "cli_fixture.hpp"

namespace trainyard::clitest {
namespace {

class Submit : public Cli {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    auto path = root() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }
};

const char* kBatchJob = R"j({"job": {"id": "sweep1", "poolInfo": {"poolId": "local"},
  "commonEnvironmentSettings": [{"name": "LR", "value": "0.1"}]},
  "tasks": [{"id": "t1", "commandLine": "echo lr=$LR"},
            {"id": "t2", "commandLine": "echo two", "dependsOn": {"taskIds": ["t1"]}}]})j";

TEST_F(Submit, DryRunJsonIsExactlyJobTasksUnmapped) {
  auto r = ty({"submit", write("job.json", kBatchJob), "--dry-run", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = json::parse(r.out);
  ASSERT_TRUE(j.is_object());
  EXPECT_EQ(j.size(), 3u);
  EXPECT_EQ(j["job"]["id"], "sweep1");
  EXPECT_EQ(j["job"]["commonEnvironmentSettings"][0]["name"], "LR");
  EXPECT_EQ(j["tasks"].size(), 2u);
  EXPECT_EQ(j["tasks"][1]["dependsOn"]["taskIds"][0], "t1");
  EXPECT_TRUE(j["unmapped"].is_array());
  EXPECT_FALSE(fs::exists(data() + "/cache.db")) << "a dry run creates nothing";
}

TEST_F(Submit, RunsLocallyWithJobEnvironmentAndDependencies) {
  auto r = ty({"submit", write("job.json", kBatchJob)});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ty({"wait", "sweep1/t2"}).code, 0);
  EXPECT_EQ(ty({"logs", "sweep1/t1"}).out, "lr=0.1\n");
  auto t1 = task_json("sweep1/t1"), t2 = task_json("sweep1/t2");
  EXPECT_LE(t1["executionInfo"]["endTime"].get<std::string>(),
            t2["executionInfo"]["startTime"].get<std::string>());
}

TEST_F(Submit, ShipyardSweepMatchesPythonRandom) {
  auto spec = write("jobs.yaml", R"y(job_specifications:
- id: lrsweep
  tasks:
  - command: echo {}
    task_factory:
      random:
        generate: 3
        seed: 42
        distribution:
          uniform:
            a: 0.01
            b: 0.1
)y");
  auto r = ty({"submit", spec, "--dry-run", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = json::parse(r.out);
  ASSERT_EQ(j["tasks"].size(), 3u);
  EXPECT_EQ(j["tasks"][0]["id"], "task-00000");
  EXPECT_EQ(j["tasks"][0]["commandLine"], "echo 0.06754841186120954");
  EXPECT_EQ(j["tasks"][2]["commandLine"], "echo 0.03475263865322074");
}

TEST_F(Submit, BadSpecNamesThePlaceAndCreatesNothing) {
  auto bad = write("bad.json", R"j({"job": {"id": "x", "poolInfo": 3}})j");
  auto r = ty({"submit", bad});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("bad.json:1:"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("/job/poolInfo"), std::string::npos) << r.err;
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_FALSE(fs::exists(data() + "/cache.db"));
}

TEST_F(Submit, OneBadTaskKeepsTheWholeJobOut) {
  auto spec = write("two.json", R"j({"job": {"id": "half", "poolInfo": {"poolId": "local"}},
    "tasks": [{"id": "ok", "commandLine": "true"}, {"id": "big", "commandLine": "true", "requiredSlots": 5}]})j");
  auto r = ty({"submit", spec});
  EXPECT_EQ(r.code, 2) << r.err;
  EXPECT_TRUE(ls_json("tasks").empty());
  EXPECT_FALSE(fs::exists(data() + "/runs/half"));
}

TEST_F(Submit, MissingFileIsAUsageError) {
  auto r = ty({"submit", root() + "/nope.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nope.json"), std::string::npos);
}

}  // namespace
}  // namespace trainyard::clitest
