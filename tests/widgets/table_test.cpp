#include "widgets/table.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard::table_test {
namespace {

std::vector<Column> task_columns() {
  return {{"ID", 0, 6, 2, Align::Left},
          {"STATE", 10, 1, 0, Align::Left},
          {"EXIT", 4, 1, 0, Align::Right},
          {"COMMAND", 0, 8, 3, Align::Left}};
}

TableRow task_row(std::size_t i, const std::string& state, Role role) {
  return {{{"task-" + std::to_string(i), std::nullopt},
           {state, role},
           {state == "completed" ? "0" : "", std::nullopt},
           {"python train.py --lr 0." + std::to_string(i), std::nullopt}}};
}

// Rows [first, first+count) of a table with `total` rows, as a caller would fetch them.
TableVm tasks_vm(std::size_t first, std::size_t count, std::size_t total) {
  TableVm vm;
  vm.columns = task_columns();
  vm.first_row = first;
  vm.total_rows = total;
  for (std::size_t i = first; i < first + count && i < total; ++i) {
    vm.rows.push_back(i % 3 == 0   ? task_row(i, "running", Role::StateRunning)
                      : i % 3 == 1 ? task_row(i, "completed", Role::StateSuccess)
                                   : task_row(i, "active", Role::StateActive));
  }
  return vm;
}

TEST(Table, LayoutColumns) {
  auto w = layout_columns(task_columns(), 60);
  EXPECT_EQ(w, (std::vector<int>{17, 10, 4, 26}));
  // Too narrow: flex columns keep min width, the last visible column is cut.
  EXPECT_EQ(layout_columns(task_columns(), 20), (std::vector<int>{6, 10, 2, 0}));
}

// Columns: ID (identifying, flex), STATE 6, TREND 8 (dropped first), GPU 3 (dropped next),
// COMMAND (flex, dropped last). Worked out by hand: at 40 cells ID wants 20 ("experiment-
// resnet-0002" is 22, title 2; the cap is 40*2/5 = 16), so 16 + 6 + 8 + 3 + 4 + 4 gaps = 41 > 40:
// TREND goes; 16 + 6 + 3 + 4 + 3 gaps = 32, and the 8 left grow ID to 22 (its content) first,
// then COMMAND gets the rest: 2.
TEST(Table, LowPriorityColumnsDropFirstAndIdsKeepTheirWidth) {
  std::vector<Column> cols{{.title = "ID", .min_width = 4, .flex = 1, .cut = Cut::Middle},
                           {.title = "STATE", .width = 6},
                           {.title = "TREND", .width = 8, .drop = 3},
                           {.title = "GPU", .width = 3, .drop = 2},
                           {.title = "COMMAND", .min_width = 4, .flex = 1, .drop = 1}};
  std::vector<int> wants{22, 6, 8, 3, 30};
  EXPECT_EQ(layout_columns(cols, 40, wants), (std::vector<int>{22, 6, 0, 3, 6}));
  // Wide enough for everything: nothing is dropped, the spare goes by flex weight.
  auto wide = layout_columns(cols, 100, wants);
  EXPECT_EQ(wide[0], 22 + (100 - 4 - 22 - 6 - 8 - 3 - 30) / 2);
  EXPECT_GT(wide[2], 0);
  // At 20 the cap is 8: 8 + 6 + 8 + 3 + 4 + 4 gaps = 33; TREND and then GPU go: 8 + 6 + 4 + 2 = 20.
  EXPECT_EQ(layout_columns(cols, 20, wants), (std::vector<int>{8, 6, 0, 0, 4}));
}

TEST(Table, AnIdIsCutInTheMiddleAndANumberNeverIsCut) {
  EXPECT_EQ(truncate_middle_to_width("experiment-resnet-0002", 20), "experiment-res…-0002");
  EXPECT_EQ(truncate_middle_to_width("run-261129-113059-fe7b", 8), "run-…e7b");
  EXPECT_EQ(truncate_middle_to_width("short", 8), "short");
  EXPECT_EQ(truncate_keeping_last_word("val_loss 0.1720", 12), "val_… 0.1720");
  EXPECT_EQ(truncate_keeping_last_word("val_loss 0.1720", 7), "val_lo…");  // no room: cut
  EXPECT_EQ(truncate_keeping_last_word("loss 0.172", 12), "loss 0.172");
}

TEST(Table, ScrollToShow) {
  EXPECT_EQ(scroll_to_show(5, 0, 10, 100), 0u);
  EXPECT_EQ(scroll_to_show(15, 0, 10, 100), 6u);
  EXPECT_EQ(scroll_to_show(3, 6, 10, 100), 3u);
  EXPECT_EQ(scroll_to_show(99, 0, 10, 100), 90u);
  EXPECT_EQ(scroll_to_show(2, 50, 10, 5), 0u);
}

TEST(Table, Normal) {
  Canvas c(60, 6);
  auto vm = tasks_vm(0, 5, 5);
  vm.selected = 1;
  render_table(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "table", "normal");
}

TEST(Table, UnfocusedSelection) {
  Canvas c(60, 4);
  auto vm = tasks_vm(0, 3, 3);
  vm.selected = 2;
  vm.focused = false;
  render_table(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "table", "unfocused");
}

TEST(Table, Narrow) {
  Canvas c(22, 4);
  auto vm = tasks_vm(0, 3, 3);
  vm.selected = 0;
  render_table(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "table", "narrow");
}

TEST(Table, VirtualisedHundredThousandRows) {
  Canvas c(60, 8);
  int body = table_body_height(c.bounds());
  std::size_t selected = 61234;
  std::size_t first = scroll_to_show(selected, 0, body, 100000);
  auto vm = tasks_vm(first, static_cast<std::size_t>(body), 100000);
  vm.selected = selected;
  render_table(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "table", "virtual_100000");
  EXPECT_EQ(c.at(59, 1).role, Role::Scrollbar);
}

TEST(Table, WideCharacters) {
  Canvas c(40, 4);
  TableVm vm;
  vm.columns = {{"NAME", 0, 4, 1, Align::Left}, {"NODE", 8, 1, 0, Align::Left}};
  vm.rows = {{{{"实验-学习率扫描-第一组", std::nullopt}, {"gpu-0", std::nullopt}}},
             {{{"🚀 launch", std::nullopt}, {"节点一号机", std::nullopt}}}};
  vm.total_rows = 2;
  vm.selected = 1;
  render_table(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "table", "cjk");
}

TEST(Table, Empty) {
  Canvas c(30, 3);
  TableVm vm;
  vm.columns = task_columns();
  vm.empty_text = "no tasks in job train-1";
  render_table(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "table", "empty");
}

// An enum column with short forms: STATE is 9 wide in full, 5 short (saves 4); ID is flex with
// at least 4. At 18 cells the spare room (18 - 1 gap - 9 - 4 = 4) covers the saving: full
// forms. At 17 it does not: every state in its short form, not cut mid-word.
TableVm state_table() {
  TableVm vm;
  vm.columns = {{"ID", 0, 4, 1}, {"STATE", 9, 1, 0, Align::Left, 5}};
  vm.rows = {{{{"lr-1", std::nullopt}, {"completed", std::nullopt, "done"}}},
             {{{"lr-2", std::nullopt}, {"preempted", std::nullopt, "preem"}}}};
  vm.total_rows = 2;
  return vm;
}

TEST(Table, ShortFormsOnlyWhenTooNarrow) {
  auto columns = state_table().columns;
  EXPECT_FALSE(use_short_forms(columns, 18));
  EXPECT_TRUE(use_short_forms(columns, 17));
  EXPECT_FALSE(use_short_forms(task_columns(), 10));  // no column has short forms
}

TEST(Table, EnumColumnShowsShortFormsWhenNarrow) {
  Canvas wide(18, 3);
  render_table(state_table(), wide, wide.bounds());
  EXPECT_EQ(wide.to_text(), "ID       STATE 1/2\nlr-1     completed\nlr-2     preempted");
  Canvas narrow(17, 3);
  render_table(state_table(), narrow, narrow.bounds());
  EXPECT_EQ(narrow.to_text(), "ID          STATE\nlr-1        done\nlr-2        preem");
}

}  // namespace
}  // namespace trainyard::table_test
