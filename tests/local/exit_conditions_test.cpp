// exit_job_action: the jobAction Batch takes from a task's exitConditions, case by case as the
// REST reference states it (ExitConditions, ExitOptions.jobAction).
#include "local/exit_conditions.hpp"

#include <gtest/gtest.h>

namespace trainyard::exit_conditions_test {
namespace {

constexpr const char* kConditions = R"({
  "exitCodes": [{"code": 0, "exitOptions": {"jobAction": "terminate"}},
                {"code": 3, "exitOptions": {"jobAction": "none"}},
                {"code": 5, "exitOptions": {}}],
  "exitCodeRanges": [{"start": 10, "end": 20, "exitOptions": {"jobAction": "disable"}}],
  "preProcessingError": {"jobAction": "disable"},
  "fileUploadError": {"jobAction": "none"},
  "default": {"jobAction": "none"}})";

TaskEnd exited(int code) {
  return {code, code != 0, code != 0 ? "FailureExitCode" : ""};
}

TEST(ExitConditions, ListedCodesFirstThenRangesThenDefault) {
  EXPECT_EQ(exit_job_action(kConditions, exited(0)), ExitJobAction::Terminate);
  EXPECT_EQ(exit_job_action(kConditions, exited(3)), ExitJobAction::None);
  EXPECT_EQ(exit_job_action(kConditions, exited(10)), ExitJobAction::Disable);
  EXPECT_EQ(exit_job_action(kConditions, exited(20)), ExitJobAction::Disable);
  EXPECT_EQ(exit_job_action(kConditions, exited(21)), ExitJobAction::None);  // default
}

TEST(ExitConditions, AnExitOptionsWithoutAJobActionTerminatesOnANonZeroCode) {
  EXPECT_EQ(exit_job_action(kConditions, exited(5)), ExitJobAction::Terminate);
  EXPECT_EQ(exit_job_action(R"({"exitCodes": [{"code": 0, "exitOptions": {}}]})", exited(0)),
            ExitJobAction::None);
}

TEST(ExitConditions, FailuresThatNothingNamesTerminateSuccessesDoNot) {
  EXPECT_EQ(exit_job_action("", exited(1)), ExitJobAction::Terminate);
  EXPECT_EQ(exit_job_action("", exited(0)), ExitJobAction::None);
  EXPECT_EQ(exit_job_action(R"({"default": {}})", exited(2)), ExitJobAction::Terminate);
  EXPECT_EQ(exit_job_action("not json", exited(2)), ExitJobAction::Terminate);
  EXPECT_EQ(exit_job_action("not json", exited(0)), ExitJobAction::None);
}

TEST(ExitConditions, PreProcessingAndUploadErrorsHaveTheirOwnEntries) {
  TaskEnd never_ran{std::nullopt, true, "ResourceFileDownloadError"};
  EXPECT_EQ(exit_job_action(kConditions, never_ran), ExitJobAction::Disable);
  TaskEnd upload{0, true, "FileUploadMiscError"};
  // Exit code 0 is listed (terminate): the code's entry takes precedence over fileUploadError.
  EXPECT_EQ(exit_job_action(kConditions, upload), ExitJobAction::Terminate);
  EXPECT_EQ(exit_job_action(R"({"fileUploadError": {"jobAction": "disable"}})", upload),
            ExitJobAction::Disable);
  EXPECT_EQ(exit_job_action(R"({"default": {"jobAction": "none"}})", never_ran),
            ExitJobAction::None);
}

TEST(ExitConditions, ActionNamesIgnoreCase) {
  EXPECT_EQ(exit_job_action(R"({"default": {"jobAction": "Disable"}})", exited(9)),
            ExitJobAction::Disable);
  EXPECT_STREQ(to_string(ExitJobAction::Terminate), "terminate");
}

}  // namespace
}  // namespace trainyard::exit_conditions_test
