#include "widgets/dialog.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard::dialog_test {
namespace {

DialogVm delete_dialog() {
  return {"Delete job?",
          "Delete job train-1 and its 3 tasks? Outputs on the nodes are lost.",
          {"Yes", "No"},
          1};
}

TEST(Dialog, DefaultsToNo) {
  Canvas c(50, 9);
  render_dialog(delete_dialog(), c, c.bounds());
  snapshot::expect_snapshot(c, "dialog", "confirm_no");
}

TEST(Dialog, KeysMoveFocusAndSubmit) {
  auto vm = delete_dialog();
  EXPECT_EQ(handle_dialog_key(vm, KeyEvent::named(Key::Left)), Reaction::Handled);
  EXPECT_EQ(vm.focused, 0);
  Canvas c(50, 9);
  render_dialog(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "dialog", "confirm_yes_focused");
  EXPECT_EQ(handle_dialog_key(vm, KeyEvent::named(Key::Tab)), Reaction::Handled);
  EXPECT_EQ(vm.focused, 1);
  EXPECT_EQ(handle_dialog_key(vm, KeyEvent::named(Key::Enter)), Reaction::Submit);
  EXPECT_EQ(handle_dialog_key(vm, KeyEvent::character('y')), Reaction::Submit);
  EXPECT_EQ(vm.focused, 0);
  EXPECT_EQ(handle_dialog_key(vm, KeyEvent::named(Key::Escape)), Reaction::Cancel);
  EXPECT_EQ(handle_dialog_key(vm, KeyEvent::character('z')), Reaction::Ignored);
}

TEST(Dialog, NarrowCjk) {
  Canvas c(24, 10);
  DialogVm vm{"删除作业?", "删除作业 学习率扫描 及其 3 个任务?", {"Yes", "No"}, 1};
  render_dialog(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "dialog", "narrow_cjk");
}

}  // namespace
}  // namespace trainyard::dialog_test
