// Two logs in the Logs pane: `|` keeps the log on screen in a split, the next log opened shows
// beside it; `|` again stacks them, Tab gives the other one the keys, `x` closes the split.
#include <gtest/gtest.h>

#include "tui_screen.hpp"

namespace trainyard::tui_log_split_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

constexpr TermSize kHuge{200, 60};

class TuiLogSplit : public TuiScreen {
 protected:
  // resnet-sweep/lr-0001's stdout kept in the split, its stderr opened beside it.
  void split_stdout_and_stderr(TermSize size) {
    open(size, "tasks", "resnet-sweep");
    select_task("0001");
    keys("Enter |");  // stdout kept; back on the Tasks pane
    keys("Enter e");  // stdout again, then stderr: the focused log
  }
};

TEST_F(TuiLogSplit, SideBySide) {
  split_stdout_and_stderr(kNormal);
  expect("logs_split_80x24");
}

TEST_F(TuiLogSplit, StackedWithTheFocusMovedUp) {
  split_stdout_and_stderr(kHuge);
  keys("| Tab");
  expect("logs_split_stacked_200x60");
}

// The keys act on the focused log only: `G` and `k` scroll stdout, not stderr.
TEST_F(TuiLogSplit, TabMovesTheKeysAndXCloses) {
  split_stdout_and_stderr(kNormal);
  keys("Tab g");
  expect("logs_split_focus_80x24");
  keys("x");
  expect("logs_split_closed_80x24");
}

}  // namespace
}  // namespace trainyard::tui_log_split_test
