// The TUI on a terminal that is not UTF-8 (LANG=C): every pane drawn in ASCII, borders, bars,
// charts and arrows as ASCII stand-ins, the columns where the UTF-8 frame has them.
#include <gtest/gtest.h>

#include <algorithm>

#include "tui_screen.hpp"

namespace trainyard {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

class TuiAscii : public TuiScreen {
 protected:
  TuiAscii() { ascii_ = true; }

  // No byte of a UTF-8 sequence reaches the terminal.
  void expect_ascii_only() {
    auto s = screen();
    auto wide = std::find_if(s.begin(), s.end(), [](char c) { return (c & 0x80) != 0; });
    EXPECT_EQ(wide, s.end()) << s;
  }

  void expect_ascii(const std::string& name) {
    expect_ascii_only();
    expect("ascii_" + name + "_80x24");
  }
};

TEST_F(TuiAscii, Accounts) {
  open(kNormal, "accounts");
  expect_ascii("accounts");
}

TEST_F(TuiAscii, JobsWithBordersAndCrumbs) {
  open(kNormal, "jobs");
  EXPECT_NE(screen().find("+-"), std::string::npos) << screen();  // a border's corner
  expect_ascii("jobs");
}

TEST_F(TuiAscii, TasksSortedShowTheArrow) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("O");
  expect_ascii("tasks");
}

TEST_F(TuiAscii, Logs) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter");
  expect_ascii("logs");
}

TEST_F(TuiAscii, DetailWithCharts) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("d");
  expect_ascii("detail");
}

TEST_F(TuiAscii, Gpus) {
  open(kNormal, "gpus");
  expect_ascii("gpus");
}

TEST_F(TuiAscii, SweepAndItsChart) {
  open(kNormal, "tasks", "lr-grid");
  keys("w");
  expect_ascii("sweep");
  keys("j Space j j Space c");
  expect_ascii("sweep_chart");
}

TEST_F(TuiAscii, Compare) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("v V");
  expect_ascii("compare");
}

TEST_F(TuiAscii, Grep) {
  open(kNormal, "tasks", "resnet-sweep");
  command("grep LOSS");
  expect_ascii("grep");
}

TEST_F(TuiAscii, HelpAndRunForm) {
  apptest::ScopedCwd cwd("/");  // the run form shows the working directory
  open(kNormal, "jobs");
  keys("?");
  expect_ascii("help");
  keys("Escape r");
  expect_ascii("run_form");
}

TEST_F(TuiAscii, StopConfirm) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0002");
  keys("s");
  expect_ascii("stop_confirm");
}

TEST_F(TuiAscii, AllJobsJsonAndColumns) {
  open(kNormal, "jobs");
  command("alljobs");
  expect_ascii("all_jobs");
  keys("Escape y");
  expect_ascii("json");
  keys("Escape");
  command("columns");
  expect_ascii("columns");
}

}  // namespace
}  // namespace trainyard
