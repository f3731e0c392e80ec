// `trainyard submit`: the dry-run JSON contract, bad specs creating nothing, local round trips.
#include "cli_fixture.hpp"

namespace trainyard::clitest::submit_test {
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

// A multi-instance task runs locally as Batch runs it: coordination everywhere, then the primary.
TEST_F(Submit, MultiInstanceTaskRunsLocallyOnItsOwnSlots) {
  set_env("TRAINYARD_CPU_SLOTS", "2");
  auto r = ty({"submit", write("mpi.json", R"j({"job": {"id": "mpi"}, "tasks": [{"id": "t",
    "commandLine": "cat $AZ_BATCH_TASK_SHARED_DIR/host-*",
    "multiInstanceSettings": {"numberOfInstances": 2,
      "coordinationCommandLine": "echo $AZ_BATCH_IS_CURRENT_NODE_MASTER > $AZ_BATCH_TASK_SHARED_DIR/host-$TRAINYARD_INSTANCE_INDEX"}}]})j")});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ty({"wait", "mpi/t"}).code, 0);
  EXPECT_EQ(ty({"logs", "mpi/t"}).out, "true\nfalse\n");
  auto t = task_json("mpi/t");
  EXPECT_EQ(t["multiInstanceSettings"]["numberOfInstances"], 2);
  auto too_many = ty({"submit", write("big.json", R"j({"job": {"id": "big"}, "tasks": [{"id": "t",
    "commandLine": "true", "multiInstanceSettings": {"numberOfInstances": 3}}]})j")});
  EXPECT_EQ(too_many.code, 2);
  EXPECT_NE(too_many.err.find("3 instances need 3 slot(s)"), std::string::npos) << too_many.err;
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

const char* kContainerJob = R"j({"job": {"id": "box"}, "tasks": [{"id": "t",
  "commandLine": "echo inside $MODEL",
  "environmentSettings": [{"name": "MODEL", "value": "resnet"}],
  "containerSettings": {"imageName": "pytorch/pytorch:latest", "containerRunOptions": "--shm-size 8g"}}]})j";

TEST_F(Submit, ContainerTaskIsRefusedWithoutDockerOrPodman) {
  set_env("PATH", root() + "/empty-bin:/usr/bin:/bin");
  fs::create_directories(root() + "/empty-bin");
  auto r = ty({"submit", write("box.json", kContainerJob)});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("neither `docker info` nor `podman info` works here"), std::string::npos)
      << r.err;
  EXPECT_TRUE(ls_json("tasks").empty());
}

// A stand-in docker: answers `info`, records its arguments, and runs the container's command on
// the host, so the test sees exactly what trainyard asks the runtime to do.
TEST_F(Submit, ContainerTaskRunsThroughTheRuntimeWithItsEnvironment) {
  fs::create_directories(root() + "/bin");
  std::ofstream(root() + "/bin/docker")
      << "#!/bin/sh\n"
         "[ \"$1\" = info ] && exit 0\n"
         "printf '%s\\n' \"$@\" > \"$AZ_BATCH_TASK_DIR/docker-args\"\n"
         "for last; do :; done\n"
         "exec /bin/sh -c \"$last\"\n";
  fs::permissions(root() + "/bin/docker", fs::perms::owner_all);
  set_env("PATH", root() + "/bin:/usr/bin:/bin");
  auto r = ty({"submit", write("box.json", kContainerJob)});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ty({"wait", "box/t"}).code, 0);
  EXPECT_EQ(ty({"logs", "box/t"}).out, "inside resnet\n");
  auto args = lines_of(read_file(data() + "/runs/box/t/docker-args"));
  ASSERT_GE(args.size(), 4u);
  EXPECT_EQ(args[0], "run");
  auto has = [&](const std::string& a) {
    return std::find(args.begin(), args.end(), a) != args.end();
  };
  EXPECT_TRUE(has("MODEL")) << "the spec's variables are passed by name";
  EXPECT_TRUE(has("AZ_BATCH_TASK_WORKING_DIR"));
  EXPECT_TRUE(has("--shm-size"));
  EXPECT_TRUE(has("pytorch/pytorch:latest"));
  EXPECT_FALSE(has("resnet")) << "values stay off the command line";
  EXPECT_FALSE(has("--gpus")) << "no GPU on this node";
  EXPECT_EQ(args[args.size() - 2], "-c");
}

TEST_F(Submit, MissingFileIsAUsageError) {
  auto r = ty({"submit", root() + "/nope.json"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("nope.json"), std::string::npos);
}

}  // namespace
}  // namespace trainyard::clitest::submit_test
