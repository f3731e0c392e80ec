// Whole-screen snapshots of the TUI over a seeded store, on a headless terminal.
#include <gtest/gtest.h>

#include <fstream>

#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "tui_screen.hpp"

namespace trainyard {
namespace {

using apptest::kNormal;
using apptest::kTiny;
using apptest::ScopedCwd;
using apptest::TuiScreen;

TEST_F(TuiScreen, JobsPane) {
  open(kNormal, "jobs");
  expect("jobs_80x24");
}

TEST_F(TuiScreen, AccountsPane) {
  open(kNormal, "accounts");
  expect("accounts_80x24");
}

TEST_F(TuiScreen, TasksPaneByDrillingIn) {
  open(kNormal, "jobs");
  keys("g Enter");  // the newest job: resnet-sweep
  expect("tasks_80x24");
}

TEST_F(TuiScreen, LogsPaneShowsPlaceholders) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter");
  expect("logs_80x24");
}

TEST_F(TuiScreen, LogsPaneStderr) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("l e");
  expect("logs_stderr_80x24");
}

TEST_F(TuiScreen, DetailWithCharts) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("d");
  expect("detail_80x24");
}

TEST_F(TuiScreen, DetailOfFailedTask) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0003");
  keys("d");
  expect("detail_failed_80x24");
}

// A multi-instance task: its instances under the facts, the primary first.
TEST_F(TuiScreen, DetailOfMultiInstanceTask) {
  auto at = [](int s) { return Timestamp(std::chrono::seconds(1'709'287'200 + s)); };
  Task t;
  t.account = kLocalAccount;
  t.job_id = "mpi";
  t.id = "allreduce";
  t.command_line = "mpirun -n 3 python3 allreduce.py";
  // Completed: a running local task without a run record would be failed by the engine.
  t.state = TaskState::Completed;
  t.creation_time = t.state_transition_time = t.execution_info.start_time = at(0);
  t.execution_info.end_time = at(9);
  t.execution_info.exit_code = 3;
  t.execution_info.result = TaskResult::Failure;
  t.execution_info.failure_info =
      FailureInfo{ErrorCategory::UserError, "FailureExitCode",
                  "the coordination command of instance 2 exited with code 3"};
  t.multi_instance = MultiInstanceSettings{3, "start-service --port 6001"};
  auto& store = *fixture_.ctx().store;
  ASSERT_TRUE(store.upsert_task(t).ok());
  Subtask ok;
  ok.id = 1;
  ok.node_info = TaskNodeInfo{kLocalPool, "gpu-vm", "/data/runs/mpi/allreduce/instances/1"};
  ok.state = TaskState::Completed;
  ok.execution_info.start_time = at(1);
  ok.execution_info.end_time = at(9);
  ok.execution_info.exit_code = 0;
  Subtask failed = ok;
  failed.id = 2;
  failed.execution_info.end_time = at(5);
  failed.execution_info.exit_code = 3;
  failed.execution_info.failure_info = FailureInfo{ErrorCategory::UserError, "FailureExitCode", ""};
  ASSERT_TRUE(store.replace_subtasks(kLocalAccount, "mpi", "allreduce", {ok, failed}).ok());
  open(kNormal, "tasks", "mpi");
  keys("d");
  expect("detail_multi_instance_80x24");
}

// A local task that waits because NVML cannot be read says so among its facts.
TEST_F(TuiScreen, DetailOfTaskWaitingForNvml) {
  Task t;
  t.account = kLocalAccount;
  t.job_id = "gpu";
  t.id = "waits";
  t.command_line = "python3 train.py";
  t.creation_time = t.state_transition_time = Timestamp(std::chrono::seconds(1'709'287'200));
  t.depends_on.task_ids = {"waits"};  // keeps the engine from starting it while the test runs
  auto& store = *fixture_.ctx().store;
  ASSERT_TRUE(store.upsert_task(t).ok());
  LocalRun run{.job = "gpu", .task = "waits", .run_dir = fixture_.dir() + "/runs/gpu/waits"};
  run.waiting_reason = "NVML cannot be read (nvmlDeviceGetCount: GPU is lost (15)); GPU tasks wait";
  ASSERT_TRUE(store.upsert_local_run(run).ok());
  open(kNormal, "tasks", "gpu");
  keys("d");
  expect("detail_waiting_80x24");
}

// A preempted run: stdout's loss in two attempts (a rule where the second began) and tqdm's loss
// on stderr in a chart of its own; the titles name the streams.
void seed_preempted(Store& store, const std::string& dir) {
  Task t;
  t.account = kLocalAccount;
  t.job_id = "spot";
  t.id = "preempted";
  t.command_line = "python3 train.py";
  t.creation_time = t.state_transition_time = Timestamp(std::chrono::seconds(1'709'287'200));
  t.execution_info.requeue_count = 1;
  t.depends_on.task_ids = {"preempted"};  // keeps the engine from starting it while the test runs
  ASSERT_TRUE(store.upsert_task(t).ok());
  LocalRun run{.job = "spot", .task = "preempted", .run_dir = dir + "/runs/spot/preempted"};
  ASSERT_TRUE(store.upsert_local_run(run).ok());
  std::vector<MetricPoint> pts;
  const Timestamp when = *t.creation_time;
  for (int i = 0; i < 30; ++i) {
    pts.push_back({"loss", i + 1.0, 1.5 * std::exp(-0.25 * i), when, "stdout", 0, true});
    pts.push_back({"loss", i + 1.0, 1.6 * std::exp(-0.2 * i), when, "stderr", 0});
  }
  for (int i = 0; i < 20; ++i)
    pts.push_back({"loss", i + 1.0, 1.47 * std::exp(-0.1 * i), when, "stdout", 1, true});
  ASSERT_TRUE(store.add_metric_points(kLocalAccount, "spot", "preempted", pts).ok());
}

TEST_F(TuiScreen, DetailMarksAttemptsAndNamesStreams) {
  seed_preempted(*fixture_.ctx().store, fixture_.dir());
  for (auto [size, name] : {std::pair{kNormal, "detail_attempts_80x24"},
                            std::pair{TermSize{160, 45}, "detail_attempts_160x45"}}) {
    open(size, "tasks", "spot");
    keys("d");
    expect(name);
  }
}

TEST_F(TuiScreen, FilterModeShowsMatchCount) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("/");
  type("lr-000");
  expect("filter_80x24");
}

// `:sort exit desc`: EXIT▼ in the header; exit 1, exit 0, then the tasks with no exit code.
TEST_F(TuiScreen, TasksSortedByExitDescending) {
  for (TermSize size : {kNormal, TermSize{200, 60}}) {
    open(size, "tasks", "resnet-sweep");
    keys(":");
    type("sort exit desc");
    keys("Enter");
    expect("tasks_sorted_" + std::to_string(size.width) + "x" + std::to_string(size.height));
  }
}

TEST_F(TuiScreen, FilterWithNoMatch) {
  open(kNormal, "jobs");
  keys("/");
  type("zzz");
  keys("Enter");
  expect("filter_empty_80x24");
}

TEST_F(TuiScreen, CommandModeCompletes) {
  open(kNormal, "jobs");
  keys(":");
  type("p");
  expect("command_80x24");
}

TEST_F(TuiScreen, UnknownCommandReportsError) {
  open(kNormal, "jobs");
  keys(":");
  type("bogus");
  keys("Enter");
  expect("command_unknown_80x24");
}

TEST_F(TuiScreen, HelpOverlay) {
  open(kNormal, "jobs");
  keys("?");
  expect("help_80x24");
}

TEST_F(TuiScreen, RunForm) {
  ScopedCwd cwd("/");
  open(kNormal, "jobs");
  keys("r");
  expect("run_form_80x24");
}

TEST_F(TuiScreen, StopConfirmDialog) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0010");
  keys("s");
  expect("stop_confirm_80x24");
  keys("Escape");  // never confirm: the running task's "supervisor" is this test process
}

TEST_F(TuiScreen, GpusPaneWithoutNvml) {
  open(kNormal, "gpus");
  expect("gpus_80x24");
}

TEST_F(TuiScreen, TinyJobs) {
  open(kTiny, "jobs");
  expect("jobs_40x12");
}

TEST_F(TuiScreen, TinyTasks) {
  open(kTiny, "tasks", "resnet-sweep");
  expect("tasks_40x12");
}

TEST_F(TuiScreen, TinyLogs) {
  open(kTiny, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter");
  expect("logs_40x12");
}

TEST_F(TuiScreen, TinyDetail) {
  open(kTiny, "tasks", "resnet-sweep");
  select_task("0001");
  keys("d");
  expect("detail_40x12");
}

TEST_F(TuiScreen, TinyHelp) {
  open(kTiny, "jobs");
  keys("?");
  expect("help_40x12");
}

TEST_F(TuiScreen, TinyRunForm) {
  ScopedCwd cwd("/");
  open(kTiny, "jobs");
  keys("r");
  expect("run_form_40x12");
}

TEST_F(TuiScreen, TinyStopConfirm) {
  open(kTiny, "tasks", "resnet-sweep");
  select_task("0010");
  keys("s");
  expect("stop_confirm_40x12");
  keys("Escape");
}

TEST_F(TuiScreen, TinyGpus) {
  open(kTiny, "gpus");
  expect("gpus_40x12");
}

TEST_F(TuiScreen, ResizeGrowsTasksPane) {
  open(kTiny, "tasks", "resnet-sweep");
  resize({100, 30});
  expect("tasks_resized_100x30");
}

TEST_F(TuiScreen, ResizeShrinksLogsPane) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter");
  resize(kTiny);
  expect("logs_resized_40x12");
}

TEST_F(TuiScreen, ResizeKeepsSelectionVisible) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("G");
  resize({80, 8});
  expect("tasks_resized_80x8");
}

// The sweep pane of `lr-grid` (the last job), reached from the Jobs pane.
TEST_F(TuiScreen, SweepFromJobs) {
  open(kNormal, "jobs");
  keys("G w");
  expect("sweep_80x24");
}

TEST_F(TuiScreen, SweepFromTasksAndCommand) {
  open(kNormal, "tasks", "lr-grid");
  keys("w");
  expect("sweep_80x24");
  keys("Escape :");
  type("sweep");
  keys("Enter");
  expect("sweep_80x24");
}

TEST_F(TuiScreen, SweepSortedByParameterWithMarks) {
  open(kNormal, "tasks", "lr-grid");
  keys("w o o o o O Space j Space");  // ID, STATE, EXIT, lr; reversed; mark the first two rows
  expect("sweep_sorted_marked_80x24");
}

TEST_F(TuiScreen, SweepChartOfMarkedRuns) {
  open(kNormal, "tasks", "lr-grid");
  keys("w j Space j j Space c");
  expect("sweep_chart_80x24");
  keys("Escape");  // closes the chart, not the pane
  expect("sweep_marked_80x24");
}

TEST_F(TuiScreen, SweepWide) {
  open({120, 30}, "tasks", "lr-grid");
  keys("w");
  expect("sweep_120x30");
}

// Parameters under their names, the header naming the metric and direction, at 160 columns.
TEST_F(TuiScreen, SweepLarge) {
  open({160, 45}, "tasks", "lr-grid");
  keys("w");
  expect("sweep_160x45");
}

// `m` picks the next metric (its own direction: accuracy goes up), `M` flips min/max; the best
// run follows at once: g1 by loss and by highest accuracy, g3 by lowest accuracy (0.36).
TEST_F(TuiScreen, SweepKeysSwitchMetricAndDirection) {
  open(kNormal, "tasks", "lr-grid");
  keys("w m");
  expect("sweep_acc_max_80x24");
  keys("M");
  expect("sweep_acc_min_80x24");
  keys("m");  // back to loss, which starts minimized again
  expect("sweep_80x24");
}

TEST_F(TuiScreen, SweepMetricKeysAreInTheHelp) {
  open({160, 45}, "tasks", "lr-grid");
  keys("w ?");
  expect("sweep_help_160x45");
}

TEST_F(TuiScreen, SweepChartOfTopRunsWide) {
  open({120, 30}, "tasks", "lr-grid");
  keys("w c");
  expect("sweep_chart_120x30");
}

TEST_F(TuiScreen, TinySweepChart) {
  open(kTiny, "tasks", "lr-grid");
  keys("w c");
  expect("sweep_chart_40x12");
}

TEST_F(TuiScreen, SweepOfJobWithoutParameters) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("w");
  expect("sweep_plain_80x24");
}

// 1,000 runs with parameters and 100 points each load in one refresh, well within a frame.
// The time is printed for reference only; bench/ holds timings (never asserted in tests).
TEST_F(TuiScreen, SweepOfThousandRunsFindsTheBest) {
  Store& s = *fixture_.ctx().store;
  ASSERT_TRUE(s.write([&]() -> Result<void> {
    for (int i = 0; i < 1000; ++i) {
      Task t;
      t.account = kLocalAccount;
      t.job_id = "big";
      t.id = "t" + std::to_string(1000 + i).substr(1);
      t.state = TaskState::Completed;
      t.execution_info.result = TaskResult::Success;
      if (auto r = s.upsert_task(t); !r) return r;
      auto lr = "0.00" + std::to_string(i % 10);
      if (auto r = s.set_task_parameters(kLocalAccount, "big", t.id,
                                         std::vector<NameValue>{{"0", lr}, {"1", "64"}});
          !r)
        return r;
      std::vector<MetricPoint> pts;
      for (int k = 0; k < 100; ++k)
        pts.push_back({"loss", k * 1.0, std::exp(-0.01 * k * (i % 7 + 1)), {}});
      if (auto r = s.add_metric_points(kLocalAccount, "big", t.id, pts); !r) return r;
    }
    return {};
  }));
  open(kNormal, "tasks", "big");
  auto start = std::chrono::steady_clock::now();
  keys("w");
  auto ms = std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() -
                                                                  start)
                .count();
  std::printf("sweep of 1000 runs: %lld ms\n", static_cast<long long>(ms));
  EXPECT_NE(term_->last_frame().to_text().find("★ t006"), std::string::npos)
      << term_->last_frame().to_text();
}

}  // namespace
}  // namespace trainyard

namespace trainyard {
namespace {

// `:submit`: a spec path (Tab completes it), a preview to confirm, then the job in the store.
TEST_F(TuiScreen, SubmitPromptPreviewsThenQueues) {
  auto spec = fixture_.dir() + "/sweep-spec.json";
  std::ofstream(spec) << R"j({"job": {"id": "from-tui", "poolInfo": {"poolId": "local"}},
    "tasks": [{"id": "a", "commandLine": "true"}, {"id": "b", "commandLine": "true"}]})j";
  open(kNormal, "jobs");
  keys(": s u b m i t Enter C-u");
  type(fixture_.dir() + "/sweep-sp");
  keys("Tab");
  auto line = term_->last_frame().to_text();
  EXPECT_NE(line.find("sweep-spec.json"), std::string::npos) << line;
  keys("Enter");
  auto preview = term_->last_frame().to_text();
  EXPECT_NE(preview.find("from-tui: 2 task(s)"), std::string::npos) << preview;
  keys("y");
  auto job = fixture_.ctx().store->job(kLocalAccount, "from-tui");
  ASSERT_TRUE(job.ok() && job->has_value());
  keys("Escape");
}

// The prompt starts at the working directory: a typed `/` or `~` after its slash starts a new
// path instead of landing under it.
TEST_F(TuiScreen, SubmitPromptTakesATypedAbsoluteOrHomePath) {
  auto spec = fixture_.dir() + "/home-spec.json";
  std::ofstream(spec) << R"j({"job": {"id": "from-home", "poolInfo": {"poolId": "local"}},
    "tasks": [{"id": "a", "commandLine": "true"}]})j";
  open(kNormal, "jobs");
  keys(": s u Enter");
  type(spec);
  keys("Enter");
  EXPECT_NE(screen().find("from-home: 1 task(s)"), std::string::npos) << screen();
  keys("Escape");
  const char* old_home = std::getenv("HOME");
  std::string saved = old_home ? old_home : "";
  ::setenv("HOME", fixture_.dir().c_str(), 1);
  keys(": s u Enter");
  type("~/home-spec.json");
  keys("Enter");
  EXPECT_NE(screen().find("from-home: 1 task(s)"), std::string::npos) << screen();
  ::setenv("HOME", saved.c_str(), 1);
  keys("Escape");
}

TEST_F(TuiScreen, SubmitPromptReportsABadFile) {
  open(kNormal, "jobs");
  keys(": s u Enter C-u");
  type(fixture_.dir() + "/missing.json");
  keys("Enter");
  EXPECT_NE(term_->last_frame().to_text().find("missing.json: cannot read the file"),
            std::string::npos);
}

}  // namespace
}  // namespace trainyard
