// spec::missing_tasks: what a resubmitted spec adds to a job that has some of its tasks.
#include <gtest/gtest.h>

#include "spec/resubmit.hpp"

namespace trainyard::spec::resubmit_test {
namespace {

SpecTask task(const std::string& id, const std::string& command, bool generated = false) {
  SpecTask t;
  t.id = id;
  t.commandLine = command;
  if (generated) t.generated_id = GeneratedId{"task-", 5};
  return t;
}

std::vector<std::string> commands_of(const JobSpec& s) {
  std::vector<std::string> out;
  for (const auto& t : s.tasks) out.push_back(t.commandLine);
  return out;
}

std::vector<std::string> ids_of(const JobSpec& s) {
  std::vector<std::string> out;
  for (const auto& t : s.tasks) out.push_back(t.id);
  return out;
}

// The job has seeds 1 and 2 as task-00000 and task-00001 and a merge task. The grown spec puts
// seed 3 first (task-00000), then 1, 2, and a merge task waiting for all three: seed 3 moves to
// task-00002 and the new merge task waits for task-00002 and the job's own two.
TEST(Resubmit, NewSeedsMoveOnAndDependenciesFollow) {
  std::vector<ExistingTask> job{{"task-00000", "run 1", std::nullopt},
                                {"task-00001", "run 2", std::nullopt},
                                {"merge-task-00000", "merge", std::nullopt}};
  JobSpec spec;
  spec.job.id = "j";
  spec.tasks = {task("task-00000", "run 3", true), task("task-00001", "run 1", true),
                task("task-00002", "run 2", true), task("merge-task-00000", "merge v2", false)};
  spec.tasks[3].dependsOn = TaskDependencies{{"task-00000", "task-00001", "task-00002"}, {}};
  // As if the file gave the merge task's id: taken, with another command.
  EXPECT_FALSE(missing_tasks(spec, job, commands_of(spec)).ok());
  spec.tasks[3].generated_id = GeneratedId{"merge-task-", 5};
  auto r = missing_tasks(spec, job, commands_of(spec));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->already, 2u);
  EXPECT_EQ(ids_of(r->spec), (std::vector<std::string>{"task-00002", "merge-task-00001"}));
  EXPECT_EQ(r->spec.tasks[1].dependsOn->taskIds,
            (std::vector<std::string>{"task-00002", "task-00000", "task-00001"}));
}

TEST(Resubmit, RepeatedCommandsMatchOneJobTaskEach) {
  std::vector<ExistingTask> job{{"a", "same", std::nullopt}, {"b", "same", std::nullopt}};
  JobSpec spec;
  spec.job.id = "j";
  spec.tasks = {task("a", "same"), task("b", "same"), task("c", "same")};
  auto r = missing_tasks(spec, job, commands_of(spec));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->already, 2u);
  EXPECT_EQ(ids_of(r->spec), std::vector<std::string>{"c"});
}

TEST(Resubmit, ParametersCountWhereTheAccountKeepsThem) {
  using Params = std::vector<std::pair<std::string, std::string>>;
  std::vector<ExistingTask> job{{"t", "run", Params{{"lr", "0.1"}}}};
  JobSpec spec;
  spec.job.id = "j";
  spec.tasks = {task("u", "run", true)};
  spec.tasks[0].parameters = {{"lr", "0.2"}};
  auto r = missing_tasks(spec, job, commands_of(spec));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->already, 0u);
  spec.tasks[0].parameters = {{"lr", "0.1"}};
  r = missing_tasks(spec, job, commands_of(spec));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->already, 1u);
}

TEST(Resubmit, AGivenIdTakenByAnotherCommandIsAConflict) {
  std::vector<ExistingTask> job{{"a", "one", std::nullopt}};
  JobSpec spec;
  spec.job.id = "j";
  spec.tasks = {task("a", "two")};
  auto r = missing_tasks(spec, job, commands_of(spec));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Conflict);
  EXPECT_EQ(r.error().message,
            "task j/a exists already with another command line; give the changed task an id of "
            "its own");
}

}  // namespace
}  // namespace trainyard::spec::resubmit_test
