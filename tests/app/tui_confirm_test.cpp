// Confirmation dialogs act only on an explicit yes.
#include <gtest/gtest.h>

#include "tui_screen.hpp"

namespace trainyard::tui_confirm_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

bool has_task(AppContext& ctx, const std::string& job, const std::string& id) {
  auto t = ctx.store->task(kLocalAccount, job, id);
  return t.ok() && t->has_value();
}

TEST_F(TuiScreen, EnterOnTheDefaultNoButtonChangesNothing) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("x Enter");
  EXPECT_TRUE(has_task(fixture_.ctx(), "resnet-sweep", "lr-0001"));
  keys("x Left Enter");
  EXPECT_FALSE(has_task(fixture_.ctx(), "resnet-sweep", "lr-0001"));
}

// No and Esc both say that nothing was done, and the box says which button Enter takes.
TEST_F(TuiScreen, ACancelledQuestionSaysSo) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("x");
  EXPECT_NE(line_with("Enter: No"), "") << screen();
  keys("Left");
  EXPECT_NE(line_with("Enter: Yes"), "") << screen();
  keys("Right Enter");
  EXPECT_NE(line_with(": cancelled"), "") << screen();
  keys("x Escape");
  EXPECT_NE(line_with(": cancelled"), "") << screen();
  EXPECT_TRUE(has_task(fixture_.ctx(), "resnet-sweep", "lr-0001"));
}

TEST_F(TuiScreen, YesByItsLetterConfirms) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("x n");
  EXPECT_TRUE(has_task(fixture_.ctx(), "resnet-sweep", "lr-0001"));
  keys("x y");
  EXPECT_FALSE(has_task(fixture_.ctx(), "resnet-sweep", "lr-0001"));
}

}  // namespace
}  // namespace trainyard::tui_confirm_test
