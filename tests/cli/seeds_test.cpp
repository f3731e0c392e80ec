// The seeds' job files on this machine: a sweep that grows by resubmission, `--job-id` for
// jobs.yaml, the Batch AI lab's job.json, local runs that stay inside the data directory,
// `--no-container` and the warnings of `--dry-run`.
#include <set>

#include "cli_fixture.hpp"

namespace trainyard::clitest::seeds_test {
namespace {

class Seeds : public Cli {
 protected:
  std::string write(const std::string& name, const std::string& text) {
    auto path = root() + "/" + name;
    std::ofstream(path) << text;
    return path;
  }

  // A jobs.yaml sweeping `seeds` (a YAML flow list) in job `job`.
  std::string seeds_spec(const std::string& job, const std::string& seeds) {
    return write(job + ".yaml", "job_specifications:\n- id: " + job +
                                    "\n  tasks:\n  - command: echo seed={}\n"
                                    "    task_factory:\n      parametric_sweep:\n"
                                    "        product_iterables:\n        - " +
                                    seeds + "\n");
  }

  // id → commandLine of every task of `job`.
  std::map<std::string, std::string> commands_of(const std::string& job) {
    std::map<std::string, std::string> out;
    for (const auto& t : ls_json("tasks", {"--job", job}))
      out[t.value("id", "")] = t.value("commandLine", "");
    return out;
  }

  // A PATH with only a directory of the given stand-in programs (plus the system's shell tools).
  void path_without_docker_or_mpirun(const std::vector<std::string>& stand_ins = {}) {
    fs::create_directories(root() + "/bin");
    for (const auto& name : stand_ins) {
      std::ofstream(root() + "/bin/" + name) << "#!/bin/sh\nexit 0\n";
      fs::permissions(root() + "/bin/" + name, fs::perms::owner_all);
    }
    set_env("PATH", root() + "/bin:/usr/bin:/bin");
  }
};

TEST_F(Seeds, ResubmittingTheSameSpecAddsNoTask) {
  auto spec = seeds_spec("sweep", "[11, 22, 33]");
  auto first = ty({"submit", spec});
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_NE(first.out.find("sweep: 3 task(s) queued"), std::string::npos) << first.out;
  auto again = ty({"submit", spec});
  ASSERT_EQ(again.code, 0) << again.err;
  EXPECT_NE(again.out.find("sweep: 0 task(s) queued, 3 already there"), std::string::npos)
      << again.out;
  EXPECT_EQ(commands_of("sweep").size(), 3u);
}

// After `rm` of two finished runs, growing the sweep queued them again. The job remembers what it
// removed: the grown spec queues only seed 44, and says why 11 and 22 stay out, until asked.
TEST_F(Seeds, RemovedRunsAreNotQueuedAgainUnlessAsked) {
  ASSERT_EQ(ty({"submit", seeds_spec("sweep", "[11, 22, 33]")}).code, 0);
  for (const char* t : {"sweep/task-00000", "sweep/task-00001", "sweep/task-00002"})
    ASSERT_EQ(ty({"wait", t}).code, 0) << t;
  ASSERT_EQ(ty({"rm", "sweep/task-00000", "sweep/task-00001"}).code, 0);
  auto grown = ty({"submit", seeds_spec("sweep", "[11, 22, 33, 44]")});
  ASSERT_EQ(grown.code, 0) << grown.err;
  EXPECT_NE(grown.out.find("sweep: 1 task(s) queued, 1 already there, 2 removed earlier, not "
                           "queued again (--rerun-removed)"),
            std::string::npos)
      << grown.out;
  std::set<std::string> commands;
  for (const auto& [id, c] : commands_of("sweep")) commands.insert(c);
  EXPECT_EQ(commands, (std::set<std::string>{"echo seed=33", "echo seed=44"}));
  auto rerun = ty({"submit", "--rerun-removed", seeds_spec("sweep", "[11, 22, 33, 44]")});
  ASSERT_EQ(rerun.code, 0) << rerun.err;
  EXPECT_NE(rerun.out.find("sweep: 2 task(s) queued, 2 already there\n"), std::string::npos)
      << rerun.out;
  commands.clear();
  for (const auto& [id, c] : commands_of("sweep")) commands.insert(c);
  EXPECT_EQ(commands, (std::set<std::string>{"echo seed=11", "echo seed=22", "echo seed=33",
                                             "echo seed=44"}));
}

// Shipyard numbers a factory's tasks task-00000, task-00001, … in the order the factory yields
// them. The second spec yields 44 first: its own numbering gives 44 the id task-00000, which the
// job has (seed 11). The job's numbering stopped at task-00002, so 44 gets task-00003, and 55
// (task-00004 in the spec, free in the job) keeps task-00004.
TEST_F(Seeds, TwoMoreSeedsAddTwoTasksWithTheNextIds) {
  ASSERT_EQ(ty({"submit", seeds_spec("sweep", "[11, 22, 33]")}).code, 0);
  auto grown = ty({"submit", seeds_spec("sweep", "[44, 11, 22, 33, 55]")});
  ASSERT_EQ(grown.code, 0) << grown.err;
  EXPECT_NE(grown.out.find("sweep: 2 task(s) queued, 3 already there"), std::string::npos)
      << grown.out;
  std::map<std::string, std::string> want{{"task-00000", "echo seed=11"},
                                          {"task-00001", "echo seed=22"},
                                          {"task-00002", "echo seed=33"},
                                          {"task-00003", "echo seed=44"},
                                          {"task-00004", "echo seed=55"}};
  EXPECT_EQ(commands_of("sweep"), want);
}

// A task given the id of a job's task with another command is refused, naming both: it is not
// a sweep's generated id that could move on.
// `onAllTasksComplete: terminatejob` (Shipyard's `auto_complete: true`) was ignored locally: the
// job stayed active with its tasks done. It completes when its last task does, as on Batch, and
// takes no more tasks then; a job without it stays active.
TEST_F(Seeds, AJobThatAsksToEndCompletesWithItsLastTask) {
  auto ends = write("ends.json", R"j({"job": {"id": "ends", "onAllTasksComplete": "terminatejob"},
    "tasks": [{"id": "a", "commandLine": "true"}, {"id": "b", "commandLine": "false"}]})j");
  auto stays = write("stays.json", R"j({"job": {"id": "stays"}, "tasks": [
    {"id": "a", "commandLine": "true"}]})j");
  ASSERT_EQ(ty({"submit", ends}).code, 0);
  ASSERT_EQ(ty({"submit", stays}).code, 0);
  for (const char* t : {"ends/a", "ends/b", "stays/a"}) ty({"wait", t});
  auto r = ty({"ls", "jobs", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, std::string> states, on_complete;
  for (const auto& j : json::parse(r.out)) {
    states[j.value("id", "")] = j.value("state", "");
    on_complete[j.value("id", "")] = j.value("onAllTasksComplete", "");
  }
  EXPECT_EQ(states["ends"], "completed") << r.out;
  EXPECT_EQ(on_complete["ends"], "terminatejob") << r.out;
  EXPECT_EQ(on_complete["stays"], "") << r.out;
  EXPECT_EQ(states["stays"], "active") << r.out;
  auto more = write("more.json", R"j({"job": {"id": "ends"}, "tasks": [
    {"id": "c", "commandLine": "echo more"}]})j");
  auto refused = ty({"submit", more});
  EXPECT_EQ(refused.code, 1);
  EXPECT_EQ(
      refused.err,
      "trainyard: submit: job ends has completed (its onAllTasksComplete is terminatejob): it "
      "takes no more tasks; use another job id\n");
  auto retry = ty({"task", "reactivate", "ends/b"});
  EXPECT_EQ(retry.code, 1);
  EXPECT_NE(retry.err.find("retry: job ends has completed"), std::string::npos) << retry.err;
}

// onTaskFailure performexitoptionsjobaction: the failed task's exit condition decides. Exit 3 is
// listed with jobAction none (the job goes on); exit 4 falls to `default`, which has none given:
// terminate. The job ends `TaskFailed`, its running task is stopped and its queued one never
// starts.
TEST_F(Seeds, AFailedTasksExitConditionEndsTheJob) {
  auto spec =
      write("ft.json", R"j({"job": {"id": "ft", "onTaskFailure": "performexitoptionsjobaction"},
    "tasks": [
      {"id": "tolerated", "commandLine": "exit 3",
       "exitConditions": {"exitCodes": [{"code": 3, "exitOptions": {"jobAction": "none"}}]}},
      {"id": "fatal", "commandLine": "sleep 1; exit 4",
       "exitConditions": {"default": {"dependencyAction": "block"}}},
      {"id": "slow", "commandLine": "sleep 60"},
      {"id": "queued", "commandLine": "echo never", "requiredSlots": 3}]})j");
  set_env("TRAINYARD_CPU_SLOTS", "3");  // the first three run side by side
  ASSERT_EQ(ty({"submit", spec}).code, 0);
  ty({"wait", "ft/tolerated"});
  ty({"wait", "ft/fatal"});
  ty({"wait", "ft/slow"});
  auto r = ty({"ls", "jobs", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  json ft;
  for (const auto& j : json::parse(r.out))
    if (j.value("id", "") == "ft") ft = j;
  EXPECT_EQ(ft.value("state", ""), "completed") << r.out;
  EXPECT_EQ(ft.value("onTaskFailure", ""), "performexitoptionsjobaction") << r.out;
  EXPECT_EQ(ft["executionInfo"].value("terminateReason", ""), "TaskFailed") << r.out;
  auto tasks = json::parse(ty({"ls", "tasks", "--job", "ft", "--json"}).out);
  std::map<std::string, std::string> states, codes;
  for (const auto& t : tasks) {
    states[t.value("id", "")] = t.value("state", "");
    codes[t.value("id", "")] = t.value("executionInfo", json::object())
                                   .value("failureInfo", json::object())
                                   .value("code", "");
  }
  EXPECT_EQ(states["slow"], "completed");  // stopped, not left running for 60 s
  EXPECT_EQ(codes["slow"], "TaskTerminated");
  EXPECT_EQ(codes["fatal"], "FailureExitCode");
  EXPECT_EQ(codes["tolerated"], "FailureExitCode");
  EXPECT_EQ(states["queued"], "active");  // a completed job starts nothing more
  auto refused = ty({"submit", write("ft2.json", R"j({"job": {"id": "ft"}, "tasks": [
    {"id": "x", "commandLine": "true"}]})j")});
  EXPECT_EQ(refused.err,
            "trainyard: submit: job ft has completed (a task's failure ended it "
            "(onTaskFailure)): it takes no more tasks; use another job id\n");
}

TEST_F(Seeds, AnExplicitIdWithAnotherCommandIsRefused) {
  auto one = write("one.json", R"j({"job": {"id": "fixed"}, "tasks": [
    {"id": "a", "commandLine": "echo one"}]})j");
  auto other = write("other.json", R"j({"job": {"id": "fixed"}, "tasks": [
    {"id": "a", "commandLine": "echo other"}]})j");
  ASSERT_EQ(ty({"submit", one}).code, 0);
  auto r = ty({"submit", other});
  EXPECT_NE(r.code, 0);
  EXPECT_NE(r.err.find("task fixed/a exists already with another command line"), std::string::npos)
      << r.err;
  EXPECT_EQ(commands_of("fixed"), (std::map<std::string, std::string>{{"a", "echo one"}}));
}

TEST_F(Seeds, JobIdRenamesTheJobOfAJobsYaml) {
  auto r = ty({"submit", seeds_spec("sweep", "[1, 2]"), "--job-id", "renamed"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(commands_of("renamed").size(), 2u);
  EXPECT_TRUE(commands_of("sweep").empty());
  auto two = write("two.yaml", R"y(job_specifications:
- id: a
  tasks: [{command: echo a}]
- id: b
  tasks: [{command: echo b}]
)y");
  auto refused = ty({"submit", two, "--job-id", "x"});
  EXPECT_EQ(refused.code, 2);
  EXPECT_NE(refused.err.find("--job-id names one job, but " + two + " has 2"), std::string::npos)
      << refused.err;
}

// The lab's job.json: cntkSettings with pythonScriptFilePath and no languageType. Batch AI read
// that as a CNTK Python job; the command is the interpreter and the script with its arguments,
// after the folders Batch AI created ($AZ_BATCHAI_MOUNT_ROOT is /m, the job is `lab`).
TEST_F(Seeds, TheLabsCntkPythonJobIsAccepted) {
  const std::string lab = TRAINYARD_SOURCE_DIR "/tests/fixtures/spec/batchai/cntk_python_lab.json";
  auto r = ty({"submit", lab, "--dry-run", "--json", "--job-id", "lab", "--mount-root", "/m"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto j = json::parse(r.out);
  ASSERT_EQ(j["tasks"].size(), 1u);
  EXPECT_EQ(j["tasks"][0]["commandLine"],
            "/bin/bash -c 'export AZ_BATCHAI_JOB_TEMP=\"$AZ_BATCH_NODE_SHARED_DIR/lab/temp\"; "
            "mkdir -p \"$AZ_BATCHAI_JOB_TEMP\" \"/m/external/lab/outputs/Models\" && "
            "python /m/external/cntk_samples/ConvNet_MNIST.py /m/external/mnist_dataset "
            "/m/external/lab/outputs/Models'");
  EXPECT_EQ(j["tasks"][0]["containerSettings"]["imageName"],
            "microsoft/cntk:2.1-gpu-python3.5-cuda8.0-cudnn6.0");
}

std::map<std::string, std::string> parse_env(const std::string& text) {
  std::map<std::string, std::string> out;
  for (const auto& line : lines_of(text)) {
    auto eq = line.find('=');
    if (eq != std::string::npos) out[line.substr(0, eq)] = line.substr(eq + 1);
  }
  return out;
}

// Without --mount-root, the node's folders and the mount root are the data directory's, and
// the run creates its output and temp folders there and nowhere else.
TEST_F(Seeds, ALocalBatchAiRunWritesOnlyUnderTheDataDirectory) {
  const std::string job = fs::path(root()).filename().string();
  auto spec = write("env.json", R"j({"properties": {
    "customToolkitSettings": {"commandLine": "env"},
    "outputDirectories": [{"id": "MODEL", "pathPrefix": "$AZ_BATCHAI_MOUNT_ROOT/out"}]}})j");
  auto r = ty({"submit", spec, "--job-id", job});
  ASSERT_EQ(r.code, 0) << r.err;
  ASSERT_EQ(ty({"wait", job + "/main"}).code, 0);
  auto env = parse_env(ty({"logs", job + "/main"}).out);
  const std::string mounts = data() + "/shared/LS_root/mounts";
  EXPECT_EQ(env["AZ_BATCH_NODE_ROOT_DIR"], data());
  EXPECT_EQ(env["AZ_BATCH_NODE_SHARED_DIR"], data() + "/shared");
  EXPECT_EQ(env["AZ_BATCH_NODE_STARTUP_DIR"], data() + "/startup");
  EXPECT_EQ(env["AZ_BATCH_TASK_DIR"], data() + "/runs/" + job + "/main");
  EXPECT_EQ(env["AZ_BATCHAI_MOUNT_ROOT"], mounts);
  EXPECT_EQ(env["AZ_BATCHAI_JOB_TEMP"], data() + "/shared/" + job + "/temp");
  EXPECT_EQ(env["AZ_BATCHAI_OUTPUT_MODEL"], mounts + "/out/" + job + "/outputs");
  EXPECT_TRUE(fs::is_directory(data() + "/shared/" + job + "/temp"));
  EXPECT_TRUE(fs::is_directory(mounts + "/out/" + job + "/outputs"));
  EXPECT_FALSE(fs::exists("/" + job)) << "the job temp folder at the filesystem root";
  EXPECT_FALSE(fs::exists("/mnt/batch/tasks/shared/LS_root/mounts/out/" + job));
}

const char* kContainerJob = R"j({"job": {"id": "box"}, "tasks": [{"id": "t",
  "commandLine": "echo inside $MODEL",
  "environmentSettings": [{"name": "MODEL", "value": "resnet"}],
  "containerSettings": {"imageName": "pytorch/pytorch:latest"}}]})j";

TEST_F(Seeds, NoContainerRunsAContainerSpecOnTheHost) {
  path_without_docker_or_mpirun();
  auto r = ty({"submit", write("box.json", kContainerJob), "--no-container"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(ty({"wait", "box/t"}).code, 0);
  EXPECT_EQ(ty({"logs", "box/t"}).out, "inside resnet\n");
  EXPECT_EQ(commands_of("box")["t"], "echo inside $MODEL");
}

// Batch AI's inputDirectories are read by the job: on this machine they must exist.
TEST_F(Seeds, DryRunWarnsOfAMissingInputDirectory) {
  fs::create_directories(root() + "/data-here");
  auto spec = write("in.json", R"j({"properties": {
    "customToolkitSettings": {"commandLine": "ls $AZ_BATCHAI_INPUT_DATA $AZ_BATCHAI_INPUT_HERE"},
    "inputDirectories": [{"id": "DATA", "path": "$AZ_BATCHAI_MOUNT_ROOT/nothing"},
                         {"id": "HERE", "path": "$AZ_BATCHAI_MOUNT_ROOT/data-here"}]}})j");
  auto r = ty({"submit", spec, "--dry-run", "--mount-root", root()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(lines_of(r.err),
            std::vector<std::string>{"trainyard: warning: in: input directory DATA (" + root() +
                                     "/nothing) does not exist"});
  EXPECT_FALSE(fs::exists(data() + "/cache.db")) << "a dry run creates nothing";
}

const char* kTwoNodeJob = R"j({"properties": {"nodeCount": 2,
  "customMpiSettings": {"commandLine": "python train.py"}}})j";

TEST_F(Seeds, DryRunWarnsOfMpirunMissingForAMultiInstanceJob) {
  path_without_docker_or_mpirun();
  auto spec = write("mpi.json", kTwoNodeJob);
  auto r = ty({"submit", spec, "--dry-run"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(
      lines_of(r.err),
      std::vector<std::string>{"trainyard: warning: mpi/main: runs mpirun, which is not on PATH"});
  path_without_docker_or_mpirun({"mpirun"});
  auto found = ty({"submit", spec, "--dry-run"});
  EXPECT_EQ(found.err, "");
}

}  // namespace
}  // namespace trainyard::clitest::seeds_test
