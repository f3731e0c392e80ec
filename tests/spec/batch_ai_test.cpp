#include "spec/batch_ai.hpp"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace trainyard::spec::batch_ai_test {
namespace {

using nlohmann::json;

std::string fixture(const std::string& name) {
  return std::string(TRAINYARD_SOURCE_DIR) + "/tests/fixtures/spec/batchai/" + name;
}

JobSpec load_ok(const std::string& name, BatchAiOptions opt = {}) {
  auto spec = load_batch_ai_json(fixture(name), opt);
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
  return spec.ok() ? std::move(spec).value() : JobSpec{};
}

JobSpec parse_ok(const std::string& text, int nodes = 1) {
  std::string body = "{\"nodeCount\": " + std::to_string(nodes) + ", " + text + "}";
  auto spec = parse_batch_ai_json("job.json", body);
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
  return spec.ok() ? std::move(spec).value() : JobSpec{};
}

std::string error_of(const std::string& name) {
  auto spec = load_batch_ai_json(fixture(name));
  EXPECT_FALSE(spec.ok());
  if (spec.ok()) return "";
  EXPECT_EQ(spec.error().kind, ErrorKind::Parse);
  EXPECT_EQ(spec.error().message.find('\n'), std::string::npos);
  return spec.error().message.substr(fixture("").size());
}

std::string env(const std::vector<EnvSetting>& all, const std::string& name) {
  for (const auto& e : all) {
    if (e.name == name) return e.value;
  }
  return "<unset>";
}

bool has_unmapped(const JobSpec& spec, const std::string& place_suffix) {
  for (const auto& u : spec.unmapped) {
    if (u.place.ends_with(place_suffix)) return true;
  }
  return false;
}

TEST(BatchAi, CustomToolkitWithEverything) {
  JobSpec spec = load_ok("custom_full.json", {"exp1", "gpu", "/mnt/root"});
  EXPECT_EQ(spec.job.id, "exp1");
  EXPECT_EQ(spec.job.poolInfo.poolId, "gpu");
  ASSERT_EQ(spec.tasks.size(), 1u);
  const SpecTask& t = spec.tasks[0];
  EXPECT_FALSE(t.multiInstanceSettings);
  EXPECT_NE(t.commandLine.find("python /mnt/root/afs/scripts/train.py --data /mnt/root/bfs/mnist "
                               "--out /mnt/root/afs/exp1/outputs/models --tmp "
                               "$AZ_BATCH_NODE_SHARED_DIR/exp1/temp"),
            std::string::npos)
      << t.commandLine;
  EXPECT_TRUE(t.commandLine.starts_with("/bin/bash -c 'export AZ_BATCHAI_JOB_TEMP="));
  EXPECT_NE(t.commandLine.find("mkdir -p"), std::string::npos);
  const auto& jenv = spec.job.commonEnvironmentSettings;
  EXPECT_EQ(env(jenv, "AZ_BATCHAI_MOUNT_ROOT"), "/mnt/root");
  EXPECT_EQ(env(jenv, "AZ_BATCHAI_INPUT_DATA"), "/mnt/root/bfs/mnist");
  EXPECT_EQ(env(jenv, "AZ_BATCHAI_OUTPUT_MODEL"), "/mnt/root/afs/exp1/outputs/models");
  EXPECT_EQ(env(jenv, "AZ_BATCHAI_STDOUTERR_DIR"), "/mnt/root/afs/exp1/stdouterr");
  EXPECT_EQ(env(jenv, "LOGDIR"), "/mnt/root/afs/exp1/outputs/models/logs");
  EXPECT_EQ(env(jenv, "EPOCHS"), "10");
  ASSERT_TRUE(t.containerSettings);
  EXPECT_EQ(t.containerSettings->imageName, "tensorflow/tensorflow:1.8.0-gpu");
  ASSERT_TRUE(spec.job.constraints && spec.job.constraints->maxWallClockTime);
  EXPECT_EQ(*spec.job.constraints->maxWallClockTime, std::chrono::hours(6));
  ASSERT_TRUE(spec.job.jobPreparationTask);
  EXPECT_NE(spec.job.jobPreparationTask->commandLine.find(
                "pip install -r /mnt/root/afs/scripts/requirements.txt"),
            std::string::npos);
  for (auto p : {"/properties/cluster", "/properties/mountVolumes",
                 "/properties/schedulingPriority", "/properties/containerSettings/shmSize",
                 "/properties/containerSettings/imageSourceRegistry/credentials",
                 "/properties/outputDirectories/0/type", "/properties/stdOutErrPathPrefix",
                 "/properties/secrets/1/valueSecretReference"}) {
    EXPECT_TRUE(has_unmapped(spec, p)) << p;
  }
  EXPECT_EQ(spec.unmapped.size(), 8u);
  EXPECT_TRUE(has_unmapped(spec, "custom_full.json:3:27 /properties/schedulingPriority"));
}

TEST(BatchAi, SecretsAreMarkedAndNeverPrinted) {
  JobSpec spec = load_ok("custom_full.json");
  EXPECT_EQ(spec.job.id, "custom_full");  // the file's stem
  ASSERT_EQ(spec.secret_names, std::vector<std::string>{"WANDB_API_KEY"});
  const auto& tenv = spec.tasks[0].environmentSettings;
  ASSERT_EQ(tenv.size(), 1u);
  EXPECT_TRUE(tenv[0].secret);
  EXPECT_EQ(tenv[0].value, "s3cr3t-wandb-value");  // for submission only
  std::string wire = to_wire_json(spec);
  EXPECT_EQ(wire.find("s3cr3t-wandb-value"), std::string::npos);
  EXPECT_EQ(wire.find("registry-password-xyz"), std::string::npos);
  EXPECT_NE(wire.find("WANDB_API_KEY"), std::string::npos);
  EXPECT_EQ(task_to_wire_json(spec.tasks[0]).find("s3cr3t"), std::string::npos);
  EXPECT_NE(task_to_wire_json(spec.tasks[0], Secrets::Reveal).find("s3cr3t"), std::string::npos);
  // The secret's name is forwarded to MPI ranks, never its value.
  EXPECT_EQ(spec.tasks[0].commandLine.find("s3cr3t"), std::string::npos);
}

TEST(BatchAi, TensorFlowParameterServersAndWorkers) {
  JobSpec spec = load_ok("tensorflow.json");
  const SpecTask& t = spec.tasks[0];
  ASSERT_TRUE(t.multiInstanceSettings);
  EXPECT_EQ(t.multiInstanceSettings->numberOfInstances, 2);
  EXPECT_TRUE(t.multiInstanceSettings->coordinationCommandLine);
  EXPECT_NE(t.commandLine.find("-np 3"), std::string::npos) << t.commandLine;
  for (auto needle :
       {"AZ_BATCHAI_PS_HOSTS=$PS", "AZ_BATCHAI_WORKER_HOSTS=$WK", "AZ_BATCHAI_TASK_INDEX=$R",
        "python /mnt/scripts/mnist_replica.py --job_name=ps", "--job_name=worker",
        "-x AZ_BATCHAI_INPUT_SCRIPT"}) {
    EXPECT_NE(t.commandLine.find(needle), std::string::npos) << needle;
  }
  EXPECT_TRUE(spec.tasks[0].commandLine.starts_with("/bin/bash -c "));
  EXPECT_TRUE(has_unmapped(spec, " /stdOutErrPathPrefix"));
}

TEST(BatchAi, PyTorchDistributed) {
  JobSpec spec = load_ok("pytorch.json");
  const SpecTask& t = spec.tasks[0];
  ASSERT_TRUE(t.multiInstanceSettings);
  ASSERT_TRUE(t.containerSettings);
  EXPECT_EQ(t.containerSettings->imageName, "pytorch/pytorch:0.4_cuda9_cudnn7");
  for (auto needle : {"-np 2", "AZ_BATCHAI_PYTORCH_BACKEND=gloo", "AZ_BATCHAI_WORLD_SIZE=2",
                      "AZ_BATCHAI_PYTORCH_INIT_METHOD=tcp://", "python /mnt/scripts/mnist.py"}) {
    EXPECT_NE(t.commandLine.find(needle), std::string::npos) << needle;
  }
}

TEST(BatchAi, SingleNodeToolkitsArePlainTasks) {
  struct Case {
    std::string body;
    std::string command;
  };
  const Case cases[] = {
      {R"("pyTorchSettings": {"pythonScriptFilePath": "a.py", "commandLineArgs": "--x 1"})",
       "python a.py --x 1"},
      {R"("caffe2Settings": {"pythonScriptFilePath": "c2.py", "pythonInterpreterPath": "/opt/py"})",
       "/opt/py c2.py"},
      {R"("chainerSettings": {"pythonScriptFilePath": "ch.py"})", "python ch.py"},
      {R"("caffeSettings": {"configFilePath": "solver.prototxt"})",
       "caffe train --solver=solver.prototxt"},
      {R"("cntkSettings": {"configFilePath": "c.cntk", "commandLineArgs": "a=1"})",
       "cntk configFile=c.cntk a=1"},
      {R"("cntkSettings": {"languageType": "python", "pythonScriptFilePath": "c.py"})",
       "python c.py"},
      {R"("cntkSettings": {"pythonScriptFilePath": "c.py", "commandLineArgs": "d"})",
       "python c.py d"},
      {R"("tensorFlowSettings": {"pythonScriptFilePath": "t.py", "masterCommandLineArgs": "--m"})",
       "python t.py --m"},
      {R"("customToolkitSettings": {"commandLine": "echo $AZ_BATCHAI_MOUNT_ROOT"})",
       "echo /mnt/batch/tasks/shared/LS_root/mounts"},
  };
  for (const auto& c : cases) {
    JobSpec spec = parse_ok(c.body);
    ASSERT_EQ(spec.tasks.size(), 1u) << c.body;
    EXPECT_FALSE(spec.tasks[0].multiInstanceSettings) << c.body;
    EXPECT_TRUE(spec.tasks[0].commandLine.ends_with(" && " + c.command + "'"))
        << spec.tasks[0].commandLine;
    EXPECT_EQ(spec.tasks[0].commandLine.find("mpirun"), std::string::npos) << c.body;
  }
}

TEST(BatchAi, MpiToolkitsUseMpirunAcrossNodes) {
  const std::pair<std::string, std::string> cases[] = {
      {R"("horovodSettings": {"pythonScriptFilePath": "h.py", "processCount": 8})", "-np 8"},
      {R"("customMpiSettings": {"commandLine": "./app"})", "-np 4"},
      {R"("chainerSettings": {"pythonScriptFilePath": "ch.py"})", "-np 4"},
      {R"("cntkSettings": {"configFilePath": "c.cntk", "processCount": 2})", "-np 2"},
      {R"("caffeSettings": {"pythonScriptFilePath": "c.py"})", "-np 4"},
  };
  for (const auto& [body, np] : cases) {
    JobSpec spec = parse_ok(body, 4);
    const SpecTask& t = spec.tasks[0];
    ASSERT_TRUE(t.multiInstanceSettings) << body;
    EXPECT_EQ(t.multiInstanceSettings->numberOfInstances, 4);
    EXPECT_NE(t.commandLine.find("mpirun --allow-run-as-root"), std::string::npos) << body;
    EXPECT_NE(t.commandLine.find(np), std::string::npos) << t.commandLine;
  }
}

TEST(BatchAi, WireOutputIsBatchShaped) {
  JobSpec spec = load_ok("tensorflow.json", {"tf", "pool1", "/m"});
  json out = json::parse(to_wire_json(spec));
  EXPECT_EQ(out["job"]["id"], "tf");
  EXPECT_EQ(out["job"]["poolInfo"]["poolId"], "pool1");
  EXPECT_EQ(out["tasks"][0]["id"], "main");
  EXPECT_EQ(out["tasks"][0]["multiInstanceSettings"]["numberOfInstances"], 2);
  EXPECT_TRUE(out["tasks"][0]["commandLine"].is_string());
  EXPECT_EQ(out["unmapped"].size(), 1u);
}

TEST(BatchAi, Detection) {
  EXPECT_TRUE(looks_like_batch_ai(R"({"properties": {"cntkSettings": {}}})"));
  EXPECT_TRUE(looks_like_batch_ai(R"({"stdOutErrPathPrefix": "/x"})"));
  EXPECT_FALSE(looks_like_batch_ai(R"({"id": "j", "poolInfo": {}})"));
  EXPECT_FALSE(looks_like_batch_ai("not json"));
}

TEST(BatchAiErrors, Malformed) {
  EXPECT_EQ(error_of("bad_node_count.json"),
            "bad_node_count.json:2:16: /nodeCount: expected an integer, got a string");
  EXPECT_EQ(error_of("two_toolkits.json"),
            "two_toolkits.json:4:21: /properties/cntkSettings: only one toolkit setting allowed; "
            "customToolkitSettings is given too");
  EXPECT_TRUE(error_of("no_toolkit.json")
                  .starts_with("no_toolkit.json:2:17: /properties: required: one toolkit setting"));
  EXPECT_EQ(error_of("bad_duration.json"),
            "bad_duration.json:3:39: /constraints/maxWallClockTime: expected an ISO 8601 duration "
            "such as PT1H30M, got '6 hours'");
  auto syntax = parse_batch_ai_json("j.json", "{\n  \"nodeCount\": 1\n  \"x\": 2}");
  ASSERT_FALSE(syntax.ok());
  EXPECT_TRUE(syntax.error().message.starts_with("j.json:3:5: /: invalid JSON: "))
      << syntax.error().message;
  auto missing = parse_batch_ai_json("j.json", R"({"pyTorchSettings": {"commandLineArgs": "x"}})");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().message,
            "j.json:1:21: /pyTorchSettings/pythonScriptFilePath: required: a non-empty string");
}

}  // namespace
}  // namespace trainyard::spec::batch_ai_test
