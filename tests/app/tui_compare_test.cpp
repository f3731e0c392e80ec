// The Compare pane over the fixture: runs marked with `v` in two jobs, their parameters and
// final/best values side by side and their curves in one chart.
#include <gtest/gtest.h>

#include "tui_screen.hpp"

namespace trainyard::tui_compare_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

constexpr TermSize kHuge{200, 60};

// resnet-sweep/lr-0001 (loss 0.9·e^(-0.12·i)+0.08 over 20 points: final = best = 0.1721),
// lr-grid g1 (final = best = e^(-2.75)+0.2 = 0.2639) and g2 (final e^(-1.65)+0.27 = 0.4621,
// best at i=10: e^(-1.5)+0.15 = 0.3731).
class TuiCompare : public TuiScreen {
 protected:
  void mark_three_runs(TermSize size) {
    open(size, "tasks", "resnet-sweep");
    select_task("0001");
    keys("v Escape Escape");  // the filter cleared, then back to the Jobs pane
    keys("G Enter");          // lr-grid, listed last
    keys("j v j v");          // g1, g2
  }
};

TEST_F(TuiCompare, RunsOfTwoJobsSideBySide) {
  mark_three_runs(kNormal);
  keys("V");
  expect("compare_80x24");
}

TEST_F(TuiCompare, RunsOfTwoJobsSideBySideLarge) {
  mark_three_runs(kHuge);
  keys(":");
  type("compare");
  keys("Enter");
  expect("compare_200x60");
}

// `v` on the selected row takes it out; `m` compares by the next metric (val_loss: g2 has none).
TEST_F(TuiCompare, RemoveARunAndCompareByTheNextMetric) {
  mark_three_runs(kNormal);
  keys("V j v m");
  expect("compare_acc_80x24");
}

TEST_F(TuiCompare, EmptySetSaysHowToAddRuns) {
  open(kNormal, "jobs");
  keys("V");
  expect("compare_empty_80x24");
}

// Enter opens the selected run's details in its own job; Escape returns to the comparison.
TEST_F(TuiCompare, EnterOpensTheRunInItsJob) {
  mark_three_runs(kNormal);
  keys("V Enter");
  expect("compare_detail_80x24");
  keys("Escape");
  expect("compare_80x24");
}

}  // namespace
}  // namespace trainyard::tui_compare_test
