#include "widgets/log_view.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard::log_view_test {
namespace {

LogViewVm sample() {
  LogViewVm vm;
  vm.first_line = 117;
  vm.total_lines = 4000;
  vm.lines = {
      {{"epoch 3 step 1200 loss=0.4312 lr=3e-4"}},
      {{"progress "}, {"^M", Role::LogPlaceholder}, {"[=====>    ] 52%"}},
      {{"WARNING: grad norm 12.5 clipped to 1.0", Role::LogWarn}},
      {{"日志: 第 3 轮 损失=0.43 🚀"}},
      {{"Traceback (most recent call last): File \"train.py\", line 88, in <module>",
        Role::LogError}},
      {{"epoch 3 step 1300 loss=0.4107 lr=3e-4"}},
  };
  return vm;
}

TEST(LogView, Plain) {
  Canvas c(48, 7);
  render_log_view(sample(), c, c.bounds());
  snapshot::expect_snapshot(c, "log_view", "plain");
}

TEST(LogView, WrapFollowAndSearch) {
  Canvas c(30, 12);
  auto vm = sample();
  vm.wrap = true;
  vm.follow = true;
  vm.search = "LOSS";
  vm.current_match = 122;
  render_log_view(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "log_view", "wrap_follow_search");
}

TEST(LogView, ScrolledRightNarrow) {
  Canvas c(16, 5);
  auto vm = sample();
  vm.x_offset = 9;
  render_log_view(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "log_view", "scrolled_narrow");
}

// Times sit in a gutter that neither scrolls right nor repeats on a wrapped line's rows.
TEST(LogView, TimesWrappedAndScrolled) {
  auto vm = sample();
  vm.times = true;
  vm.line_times = {"14:02:07", "14:02:07", "14:02:09", "--:--:--", "14:03:00", "14:03:01"};
  Canvas wrapped(36, 12);
  vm.wrap = true;
  render_log_view(vm, wrapped, wrapped.bounds());
  snapshot::expect_snapshot(wrapped, "log_view", "times_wrapped");
  Canvas right(30, 7);
  vm.wrap = false;
  vm.x_offset = 9;
  render_log_view(vm, right, right.bounds());
  snapshot::expect_snapshot(right, "log_view", "times_scrolled");
}

// Wrapping counts rows as it draws them: a wide character that does not fit starts a row.
TEST(LogView, WrappedRowsAreTheRowsDrawn) {
  EXPECT_EQ(wrapped_rows({}, 10), 1u);
  EXPECT_EQ(wrapped_rows({{std::string(10, 'a'), Role::LogText}}, 10), 1u);
  EXPECT_EQ(wrapped_rows({{std::string(11, 'a'), Role::LogText}}, 10), 2u);
  EXPECT_EQ(wrapped_rows({{"aaaa\u65e5", Role::LogText}}, 5), 2u);  // 4 cells, then 2 on a row
  EXPECT_EQ(line_cells({{"ab", Role::LogText}, {"\u65e5", Role::LogWarn}}), 4);
}

// A line taller than the screen is shown from the row scrolled to, and the next line after it.
TEST(LogView, FirstRowSkipsTheTopLinesRows) {
  LogViewVm vm;
  vm.wrap = true;
  vm.total_lines = 2;
  vm.lines = {{{"0123456789abcdefghij", Role::LogText}}, {{"next", Role::LogText}}};
  vm.first_row = 1;
  Canvas c(10, 4);
  render_log_view(vm, c, c.bounds());
  EXPECT_EQ(c.to_text().substr(0, 15), "abcdefghij\nnext");
}

}  // namespace
}  // namespace trainyard::log_view_test
