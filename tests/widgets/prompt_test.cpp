#include "widgets/prompt.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"
#include "widgets/line_edit.hpp"

namespace trainyard::prompt_test {
namespace {

TEST(CommandLine, TypedWithHint) {
  Canvas c(40, 1);
  LineEdit e;
  for (char ch : std::string("po")) e.handle(KeyEvent::character(static_cast<char32_t>(ch)));
  CommandLineVm vm{":", e.text(), e.cursor(), "ols", "pools pool"};
  render_command_line(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "command_line", "hint");
}

TEST(CommandLine, CursorInsideCjk) {
  Canvas c(30, 1);
  LineEdit e("open 学习率");
  e.handle(KeyEvent::named(Key::Left));
  CommandLineVm vm{":", e.text(), e.cursor(), "", ""};
  render_command_line(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "command_line", "cjk_cursor");
}

TEST(CommandLine, NarrowScrollsToCursor) {
  Canvas c(12, 1);
  LineEdit e("resize pool gpu-pool-a100 --nodes 4");
  CommandLineVm vm{":", e.text(), e.cursor(), "", "x y"};
  render_command_line(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "command_line", "narrow");
}

TEST(FilterLine, Matches) {
  Canvas c(40, 3);
  render_filter_line({"train", 5, true, 12}, c, {0, 0, 40, 1});
  render_filter_line({"zzz", 3, true, 0}, c, {0, 1, 40, 1});
  render_filter_line({"failed", 6, false, 1}, c, {0, 2, 40, 1});
  snapshot::expect_snapshot(c, "filter_line", "matches");
}

TEST(FilterLine, Narrow) {
  Canvas c(14, 1);
  render_filter_line({"学习率扫描", 15, true, 100000}, c, c.bounds());
  snapshot::expect_snapshot(c, "filter_line", "narrow");
}

}  // namespace
}  // namespace trainyard::prompt_test
