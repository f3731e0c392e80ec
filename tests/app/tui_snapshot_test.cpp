// Whole-screen snapshots of the TUI over a seeded store, on a headless terminal.
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "../widgets/snapshot.hpp"
#include "app/terminal.hpp"
#include "app/tui.hpp"
#include "tui_fixture.hpp"

namespace trainyard {
namespace {

constexpr TermSize kNormal{80, 24};
constexpr TermSize kTiny{40, 12};

/// Changes the working directory for the lifetime of the object (the run form shows it).
class ScopedCwd {
 public:
  explicit ScopedCwd(const std::filesystem::path& dir) : old_(std::filesystem::current_path()) {
    std::filesystem::current_path(dir);
  }
  ~ScopedCwd() {
    std::error_code ec;
    std::filesystem::current_path(old_, ec);
  }
  ScopedCwd(const ScopedCwd&) = delete;
  ScopedCwd& operator=(const ScopedCwd&) = delete;

 private:
  std::filesystem::path old_;
};

/// One TUI over the fixture on a headless terminal.
class TuiScreen : public ::testing::Test {
 protected:
  TuiScreen() : fixture_(SystemClock().now()) {}

  /// Starts the TUI on `view` (and `job`) at `size` and draws the first frame.
  void open(TermSize size, const std::string& view, const std::string& job = "") {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = view;
    o.job = job;
    o.demo_command = "python3 examples/train_demo.py";
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->sample_gpus_once();
    tui_->draw();
  }

  /// Feeds space-separated tmux-style key names, drawing after each as the real loop does.
  void keys(const std::string& names) {
    std::istringstream in(names);
    for (std::string name; in >> name;) {
      auto k = parse_key_name(name);
      ASSERT_TRUE(k) << name;
      tui_->handle_key(*k);
      tui_->draw();
    }
  }

  /// Types literal text (each character one key).
  void type(const std::string& text) {
    for (char ch : text) {
      tui_->handle_key(KeyEvent::character(static_cast<unsigned char>(ch)));
      tui_->draw();
    }
  }

  /// Resizes the terminal and lets the TUI handle the queued Resize key.
  void resize(TermSize size) {
    term_->resize(size);
    while (auto k = term_->read_key()) tui_->handle_key(*k);
    tui_->draw();
  }

  /// Selects the task whose row contains `text` in the Tasks pane (filter, then submit).
  void select_task(const std::string& text) {
    keys("/");
    type(text);
    keys("Enter");
  }

  /// Compares the last frame with tests/snapshots/app/<name>.
  void expect(const std::string& name) {
    ASSERT_TRUE(term_);
    snapshot::expect_snapshot(term_->last_frame(), "app", name);
  }

  apptest::TuiFixture fixture_;
  std::unique_ptr<HeadlessTerminal> term_;
  std::unique_ptr<Tui> tui_;
};

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

TEST_F(TuiScreen, FilterModeShowsMatchCount) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("/");
  type("lr-000");
  expect("filter_80x24");
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

}  // namespace
}  // namespace trainyard
