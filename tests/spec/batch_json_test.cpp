#include "spec/batch_json.hpp"

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace trainyard::spec::batch_json_test {
namespace {

using nlohmann::json;

std::string fixture(const std::string& name) {
  return std::string(TRAINYARD_SOURCE_DIR) + "/tests/fixtures/spec/batch/" + name;
}

JobSpec load_ok(const std::string& name, std::optional<std::string> job_id = std::nullopt) {
  auto spec = load_batch_json(fixture(name), BatchJsonOptions{std::move(job_id)});
  EXPECT_TRUE(spec.ok()) << (spec.ok() ? "" : spec.error().message);
  return spec.ok() ? std::move(spec).value() : JobSpec{};
}

// Errors are reported relative to the path given, so the message starts with the fixture path.
std::string load_error(const std::string& name, std::optional<std::string> job_id = std::nullopt) {
  auto spec = load_batch_json(fixture(name), BatchJsonOptions{std::move(job_id)});
  EXPECT_FALSE(spec.ok());
  if (spec.ok()) return "";
  EXPECT_EQ(spec.error().kind, ErrorKind::Parse);
  EXPECT_EQ(spec.error().message.find('\n'), std::string::npos);
  std::string prefix = std::string(TRAINYARD_SOURCE_DIR) + "/tests/fixtures/spec/batch/";
  const std::string& m = spec.error().message;
  return m.starts_with(prefix) ? m.substr(prefix.size()) : m;
}

TEST(BatchJson, JobBodyFromTheRestExample) {
  JobSpec spec = load_ok("job_complex.json");
  EXPECT_EQ(spec.job.id, "jobId");
  EXPECT_EQ(spec.job.priority, 100);
  ASSERT_TRUE(spec.job.constraints);
  EXPECT_EQ(spec.job.constraints->maxTaskRetryCount, -1);
  EXPECT_TRUE(spec.job.poolInfo.autoPoolSpecification);
  ASSERT_EQ(spec.job.extra.size(), 1u);
  EXPECT_EQ(spec.job.extra[0].first, "jobManagerTask");
  EXPECT_TRUE(spec.tasks.empty());
  EXPECT_TRUE(spec.unmapped.empty());
  // Everything the user wrote survives the trip to the wire.
  json in = json::parse(std::ifstream(fixture("job_complex.json")));
  json out = json::parse(to_wire_json(spec))["job"];
  EXPECT_EQ(out["jobManagerTask"], in["jobManagerTask"]);
  EXPECT_EQ(out["poolInfo"], in["poolInfo"]);
  EXPECT_EQ(out["metadata"], in["metadata"]);
}

TEST(BatchJson, TaskCollectionNeedsAJobId) {
  EXPECT_EQ(load_error("task_collection.json"),
            "task_collection.json:1:1: /: a task array needs a job id (give one with --job-id)");
  JobSpec spec = load_ok("task_collection.json", "myjob");
  EXPECT_EQ(spec.job.id, "myjob");
  ASSERT_EQ(spec.tasks.size(), 2u);
  const SpecTask& t = spec.tasks[0];
  EXPECT_EQ(t.id, "complex1");
  EXPECT_EQ(t.requiredSlots, 2);
  ASSERT_TRUE(t.multiInstanceSettings);
  EXPECT_EQ(t.multiInstanceSettings->numberOfInstances, 3);
  EXPECT_EQ(t.multiInstanceSettings->commonResourceFiles.size(), 1u);
  ASSERT_TRUE(t.constraints && t.constraints->maxWallClockTime);
  EXPECT_EQ(*t.constraints->maxWallClockTime, std::chrono::hours(24));
  EXPECT_EQ(t.extra.at(0).first, "affinityInfo");
  EXPECT_EQ(t.origin, fixture("task_collection.json") + ":2:3");
}

TEST(BatchJson, SingleTaskWithContainer) {
  EXPECT_EQ(load_error("task_container.json"),
            "task_container.json:1:1: /: a task needs a job id (give one with --job-id)");
  JobSpec spec = load_ok("task_container.json", "j");
  ASSERT_EQ(spec.tasks.size(), 1u);
  ASSERT_TRUE(spec.tasks[0].containerSettings);
  EXPECT_EQ(spec.tasks[0].containerSettings->imageName, "ubuntu");
  EXPECT_EQ(spec.tasks[0].containerSettings->containerRunOptions, "--rm");
  EXPECT_TRUE(spec.tasks[0].userIdentity);
}

TEST(BatchJson, CombinedJobAndTasksMatchesGolden) {
  JobSpec spec = load_ok("job_and_tasks.json");
  ASSERT_EQ(spec.tasks.size(), 3u);
  EXPECT_EQ(spec.job.usesTaskDependencies, true);  // implied by dependsOn
  json golden = json::parse(std::ifstream(fixture("job_and_tasks.wire.json")));
  json out = json::parse(to_wire_json(spec));
  // Places name the file by the path given; the golden file names it by its base name.
  for (auto& u : out["unmapped"]) {
    std::string place = u["place"];
    u["place"] = place.substr(place.rfind('/', place.find(':')) + 1);
  }
  EXPECT_EQ(out, golden) << out.dump(2);
}

TEST(BatchJson, UnknownAndReadOnlyFieldsAreUnmappedWithTheirPlace) {
  auto spec = parse_batch_json(
      "t.json", "[{\"id\": \"a\", \"commandLine\": \"x\",\n \"state\": 1}]", BatchJsonOptions{"j"});
  ASSERT_TRUE(spec.ok());
  ASSERT_EQ(spec->unmapped.size(), 1u);
  EXPECT_EQ(spec->unmapped[0].place, "t.json:2:11 /0/state");
  EXPECT_EQ(spec->unmapped[0].what, "read-only field 'state' of a task; ignored");
}

TEST(BatchJson, EnumsAreCaseInsensitiveAndWrittenInWireCase) {
  auto spec = parse_batch_json(
      "j.json",
      R"({"id": "j", "onAllTasksComplete": "TerminateJob", "onTaskFailure": "NOACTION"})");
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->job.onAllTasksComplete, "terminatejob");
  EXPECT_EQ(spec->job.onTaskFailure, "noaction");
}

TEST(BatchJson, JobIdOptionOverridesTheFile) {
  auto spec = parse_batch_json("j.json", R"({"id": "j", "poolInfo": {"poolId": "p"}})",
                               BatchJsonOptions{"other"});
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(spec->job.id, "other");
  auto bad = parse_batch_json("j.json", R"([{"id": "a", "commandLine": "x"}])",
                              BatchJsonOptions{"bad id"});
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message,
            "j.json:1:1: /id: expected 1-64 letters, digits, '-' or '_', got 'bad id'");
}

TEST(BatchJson, ThousandTasks) {
  JobSpec spec = load_ok("tasks_1000.json", "big");
  ASSERT_EQ(spec.tasks.size(), 1000u);
  EXPECT_EQ(spec.tasks[999].id, "task-00999");
  EXPECT_EQ(spec.tasks[999].requiredSlots, 4);
  EXPECT_EQ(spec.tasks[999].origin, fixture("tasks_1000.json") + ":1001:1");
  EXPECT_EQ(json::parse(to_wire_json(spec))["tasks"].size(), 1000u);
}

TEST(BatchJsonErrors, SyntaxError) {
  std::string m = load_error("bad_syntax.json");
  EXPECT_TRUE(m.starts_with("bad_syntax.json:4:17: /: invalid JSON: ")) << m;
}

TEST(BatchJsonErrors, WrongType) {
  EXPECT_EQ(load_error("bad_type.json"),
            "bad_type.json:4:58: /tasks/0/requiredSlots: expected an integer, got a string");
}

TEST(BatchJsonErrors, BadEnum) {
  EXPECT_EQ(load_error("bad_enum.json"),
            "bad_enum.json:4:25: /onAllTasksComplete: expected one of noaction, terminatejob, got "
            "'terminate'");
}

TEST(BatchJsonErrors, BadDuration) {
  EXPECT_EQ(load_error("bad_duration.json", "j"),
            "bad_duration.json:5:41: /0/constraints/maxWallClockTime: expected an ISO 8601 "
            "duration such as PT1H30M, got '2h'");
}

TEST(BatchJsonErrors, DuplicateTaskIds) {
  EXPECT_EQ(load_error("dup_ids.json", "j"),
            "dup_ids.json:4:10: /2/id: duplicate task id 'a' (first defined at " +
                fixture("dup_ids.json") + ":2:3)");
}

TEST(BatchJsonErrors, MissingCommandLine) {
  EXPECT_EQ(load_error("missing_command.json"),
            "missing_command.json:5:5: /tasks/1/commandLine: required: a non-empty string");
}

TEST(BatchJsonErrors, BadIdAndSlotsAndDependencies) {
  EXPECT_EQ(load_error("bad_id.json"),
            "bad_id.json:2:9: /id: expected 1-64 letters, digits, '-' or '_', got 'my job!'");
  EXPECT_EQ(load_error("bad_slots.json", "j"),
            "bad_slots.json:2:56: /0/requiredSlots: expected an integer in 1..2147483647, got 0");
  EXPECT_EQ(load_error("deps_disabled.json"),
            "deps_disabled.json:2:47: /job/usesTaskDependencies: must be true when tasks use "
            "dependsOn");
}

TEST(BatchJsonErrors, DuplicateKeysAndMissingFile) {
  auto dup = parse_batch_json("d.json", "{\"id\": \"a\",\n \"id\": \"b\"}");
  ASSERT_FALSE(dup.ok());
  EXPECT_EQ(dup.error().message, "d.json:2:2: /id: duplicate key; each field may appear once");
  auto missing = load_batch_json("/nonexistent/x.json");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.error().kind, ErrorKind::Io);
}

}  // namespace
}  // namespace trainyard::spec::batch_json_test
