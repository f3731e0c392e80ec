// The run form starts real local runs (a real supervisor): its retries, wall-clock limit and
// instances reach the engine, and ^O opens the whole run as a Batch task in $EDITOR.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "tui_screen.hpp"

namespace trainyard::tui_run_form_test {
namespace {

using namespace std::chrono_literals;

class TuiRunForm : public apptest::TuiScreen {
 protected:
  void SetUp() override {
    fixture_.ctx().engine.trainyard_exe = TRAINYARD_BIN;
    fixture_.ctx().engine.cpu_slots = 4;  // the fixture's running task holds one
  }
  void TearDown() override { ::unsetenv("EDITOR"); }
  std::string screen() { return term_->last_frame().to_text(); }
  // Opens the run form on job `job` with `command` typed over the demo command.
  void open_run_form(const std::string& job, const std::string& command) {
    open(apptest::kNormal, "jobs");
    keys("r C-u");
    type(command);
    keys("Tab C-u");
    type(job);
  }
  // Focus on the field `tabs` Tabs below Job, its value cleared, `value` typed.
  void set_field(int tabs, const std::string& value) {
    for (int i = 0; i < tabs; ++i) keys("Tab");
    keys("C-u");
    type(value);
    for (int i = 0; i < tabs; ++i) keys("BTab");
  }
  // The job's only task once it completed (waits up to 30 s).
  std::optional<Task> completed_task(const std::string& job) {
    for (int i = 0; i < 300; ++i, std::this_thread::sleep_for(100ms)) {
      TaskQuery q;
      q.account = kLocalAccount;
      q.job = job;
      auto tasks = fixture_.ctx().store->tasks(q);
      if (tasks && tasks->size() == 1 && tasks->front().state == TaskState::Completed)
        return tasks->front();
    }
    return std::nullopt;
  }
  void editor_script(const std::string& body) {
    auto path = fixture_.dir() + "/editor.sh";
    std::ofstream(path) << "#!/bin/sh\n" << body << "\n";
    std::filesystem::permissions(path, std::filesystem::perms::owner_all);
    ::setenv("EDITOR", path.c_str(), 1);
  }
};

// Fields below Job: Name 1, GPUs 2, Directory 3, Retries 4, Wall clock 5, Instances 6.
TEST_F(TuiRunForm, RetriesAreHonouredByTheRun) {
  open_run_form("retried", "exit 3");
  set_field(4, "2");
  keys("Enter");
  auto t = completed_task("retried");
  ASSERT_TRUE(t) << screen();
  EXPECT_EQ(t->constraints.max_task_retry_count, 2);
  EXPECT_EQ(t->execution_info.retry_count, 2);  // run 3 times in all
  EXPECT_EQ(t->execution_info.exit_code, 3);
}

TEST_F(TuiRunForm, WallClockLimitEndsTheRun) {
  open_run_form("limited", "sleep 60");
  set_field(5, "1s");
  auto started = std::chrono::steady_clock::now();
  keys("Enter");
  auto t = completed_task("limited");
  ASSERT_TRUE(t) << screen();
  EXPECT_LT(std::chrono::steady_clock::now() - started, 30s);
  ASSERT_TRUE(t->execution_info.failure_info);
  EXPECT_EQ(t->execution_info.failure_info->code, "MaxWallClockTimeExceeded");
}

TEST_F(TuiRunForm, InstancesRunTheTaskOnThatManySlots) {
  open_run_form("multi", "echo done");
  set_field(6, "2");
  keys("Enter");
  auto t = completed_task("multi");
  ASSERT_TRUE(t) << screen();
  ASSERT_TRUE(t->multi_instance);
  EXPECT_EQ(t->multi_instance->number_of_instances, 2);
  EXPECT_EQ(t->execution_info.exit_code, 0);
}

TEST_F(TuiRunForm, BadFieldsAreRefusedUnderTheirField) {
  open_run_form("bad", "true");
  set_field(5, "soon");
  keys("Enter");
  EXPECT_NE(screen().find("Start a run"), std::string::npos) << screen();
  EXPECT_NE(screen().find("a duration such as 30m"), std::string::npos) << screen();
}

TEST_F(TuiRunForm, EditorSetsWhatTheFormHasNoFieldFor) {
  // The environment and the retries, set in the JSON; the form's command kept.
  editor_script(R"(python3 - "$1" <<'PY'
import json, sys
t = json.load(open(sys.argv[1]))
t["environmentSettings"] = [{"name": "GREETING", "value": "hi"}]
t["constraints"]["maxTaskRetryCount"] = 1
t["commandLine"] = t["commandLine"] + " $GREETING"
json.dump(t, open(sys.argv[1], "w"))
PY)");
  open_run_form("edited", "test hi =");
  keys("C-o");
  auto t = completed_task("edited");
  ASSERT_TRUE(t) << screen();
  EXPECT_EQ(t->command_line, "test hi = $GREETING");
  EXPECT_EQ(t->constraints.max_task_retry_count, 1);
  EXPECT_EQ(t->execution_info.exit_code, 0);
}

TEST_F(TuiRunForm, EditorWritingAnInvalidRunStartsNothing) {
  editor_script(R"(printf '{\n  "id": "x",\n  "commandLine": 7\n}\n' > "$1")");
  open_run_form("invalid", "true");
  keys("C-o");
  EXPECT_NE(screen().find("Start a run"), std::string::npos) << screen();
  EXPECT_NE(screen().find("run.json:3:18"), std::string::npos) << screen();
  TaskQuery q;
  q.account = kLocalAccount;
  q.job = "invalid";
  EXPECT_TRUE(fixture_.ctx().store->tasks(q)->empty());
}

// The run's id is stamped from the TUI's clock, as every other time it shows.
TEST_F(TuiRunForm, TheRunIdComesFromTheTuisClock) {
  auto seen = fixture_.dir() + "/seen.json";
  editor_script("cp \"$1\" " + seen);
  open_run_form("stamped", "true");
  keys("C-o");
  std::ifstream in(seen);
  auto task = nlohmann::json::parse(in, nullptr, false);
  ASSERT_FALSE(task.is_discarded());
  EXPECT_EQ(task.value("id", ""), "run-" + std::to_string(to_micros(apptest::kFixtureNow) / 1000));
}

}  // namespace
}  // namespace trainyard::tui_run_form_test
