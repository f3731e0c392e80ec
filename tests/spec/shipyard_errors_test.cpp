// Malformed jobs.yaml: one-line errors with file:line:col and the field path.
#include <gtest/gtest.h>

#include <string>

#include "spec/shipyard.hpp"

namespace trainyard::spec::shipyard_errors_test {
namespace {

std::string error_of(const std::string& yaml) {
  auto r = parse_shipyard_jobs(yaml, "jobs.yaml", {});
  EXPECT_FALSE(r.ok());
  if (r.ok()) return "";
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  return r.error().message;
}

const std::string kHead = "job_specifications:\n- id: j\n  tasks:\n";

TEST(ShipyardErrorsTest, SyntaxError) {
  EXPECT_EQ(error_of("job_specifications:\n- id: [a,\n  b\n"),
            "jobs.yaml:4:1: /: YAML syntax error: end of sequence flow not found");
}

// Found by fuzz_spec: an invalid byte in a value reached the JSON writer, which threw.
TEST(ShipyardErrorsTest, InvalidUtf8IsRefusedWithItsPlace) {
  const std::string bad = kHead + "  - command: x\n    resource_files:\n    - file_path: a\xff\n" +
                          "      blob_source: http://x\n";
  EXPECT_EQ(error_of(bad), "jobs.yaml:6:19: /: invalid UTF-8 (byte 0xFF)");
  EXPECT_EQ(error_of("job_specifications: \xc0\xaf\n"),
            "jobs.yaml:1:21: /: invalid UTF-8 (byte 0xC0)");
  EXPECT_EQ(error_of("job_specifications:\n- id: \xed\xa0\x80\n"),
            "jobs.yaml:2:7: /: invalid UTF-8 (byte 0xED)");
}

TEST(ShipyardErrorsTest, MissingAndWrongTopLevel) {
  EXPECT_EQ(error_of("jobs: []\n"),
            "jobs.yaml:1:1: /job_specifications: required: expected a list");
  EXPECT_EQ(error_of("job_specifications: 3\n"),
            "jobs.yaml:1:21: /job_specifications: expected a list, got '3'");
}

TEST(ShipyardErrorsTest, WrongTypes) {
  EXPECT_EQ(error_of(kHead + "  - command: x\n    max_task_retries: lots\n"),
            "jobs.yaml:5:23: /job_specifications/0/tasks/0/max_task_retries: expected an integer, "
            "got 'lots'");
  EXPECT_EQ(error_of(kHead + "  - command: [a, b]\n"),
            "jobs.yaml:4:14: /job_specifications/0/tasks/0/command: expected a string, got a list");
  EXPECT_EQ(error_of(kHead + "  - id: t\n"),
            "jobs.yaml:4:5: /job_specifications/0/tasks/0/command: required: expected the command "
            "to run");
  EXPECT_EQ(error_of(kHead + "  - command: x\n    depends_on_range: [1]\n"),
            "jobs.yaml:5:23: /job_specifications/0/tasks/0/depends_on_range: expected exactly 2 "
            "integers [start, end]");
}

TEST(ShipyardErrorsTest, BadMaxWallTime) {
  EXPECT_EQ(error_of(kHead + "  - command: x\n    max_wall_time: 2h\n"),
            "jobs.yaml:5:20: /job_specifications/0/tasks/0/max_wall_time: expected a duration as "
            "[d.]HH:mm:ss, e.g. 1.12:00:00, got '2h'");
}

TEST(ShipyardErrorsTest, UnknownFactoryAndSweep) {
  EXPECT_EQ(error_of(kHead + "  - command: x\n    task_factory:\n      grid: 3\n"),
            "jobs.yaml:6:13: /job_specifications/0/tasks/0/task_factory/grid: unknown task factory "
            "'grid': expected parametric_sweep, random or repeat");
  EXPECT_NE(error_of(kHead + "  - command: x\n    task_factory:\n      parametric_sweep:\n"
                             "        cartesian: []\n")
                .find("unknown parametric_sweep type"),
            std::string::npos);
  EXPECT_NE(
      error_of(kHead + "  - command: x\n    task_factory:\n      random:\n        generate: 2\n"
                       "        distribution:\n          cauchy: {x: 1}\n")
          .find("unknown distribution 'cauchy'"),
      std::string::npos);
}

TEST(ShipyardErrorsTest, FormatAndIdProblems) {
  EXPECT_EQ(error_of(kHead + "  - command: run {2}\n    task_factory:\n      parametric_sweep:\n"
                             "        zip: [[1], [2]]\n"),
            "jobs.yaml:4:14: /job_specifications/0/tasks/0/command: Replacement index 2 out of "
            "range for positional args tuple");
  EXPECT_NE(error_of(kHead + "  - id: a\n    command: x\n  - id: a\n    command: y\n")
                .find("duplicate task id 'a'"),
            std::string::npos);
  EXPECT_NE(error_of(kHead + "  - command: x\n  merge_task:\n    command: m\n    depends_on: [a]\n")
                .find("not allowed in merge_task"),
            std::string::npos);
}

TEST(ShipyardErrorsTest, BadDistributionParameters) {
  EXPECT_NE(
      error_of(kHead + "  - command: x {}\n    task_factory:\n      random:\n        generate: 2\n"
                       "        distribution:\n          gamma: {alpha: 0, beta: 1}\n")
          .find("alpha and beta must be > 0.0"),
      std::string::npos);
  EXPECT_NE(
      error_of(kHead + "  - command: x {}\n    task_factory:\n      random:\n        generate: 2\n"
                       "        integer: {start: 5, stop: 5, step: 1}\n")
          .find("empty range"),
      std::string::npos);
}

TEST(ShipyardErrorsTest, SweepTooLarge) {
  ShipyardOptions opts;
  opts.max_tasks = 100;
  auto r =
      parse_shipyard_jobs(kHead +
                              "  - command: x {} {}\n    task_factory:\n      parametric_sweep:\n"
                              "        product:\n        - {start: 0, stop: 11}\n"
                              "        - {start: 0, stop: 10}\n",
                          "jobs.yaml", opts);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("expands to more than 100 tasks"), std::string::npos);
}

}  // namespace
}  // namespace trainyard::spec::shipyard_errors_test
