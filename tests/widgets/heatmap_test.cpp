#include "widgets/heatmap.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard::heatmap_test {
namespace {

std::string row(const Canvas& c, int y) {
  std::string text = c.to_text();
  size_t start = 0;
  for (int i = 0; i < y; ++i) start = text.find('\n', start) + 1;
  return text.substr(start, text.find('\n', start) - start);
}

// 9 columns hold 5 squares a row; 12 items in 2 rows: 10 would fill both, but "+2" must fit
// behind the last, so 8 are drawn and the second row ends in "+4".
TEST(Heatmap, WrapsAndCountsWhatDoesNotFit) {
  Canvas c(9, 2);
  HeatmapVm vm;
  for (int i = 0; i < 12; ++i) vm.cells.push_back(i < 3 ? Role::StateRunning : Role::StateActive);
  EXPECT_EQ(render_heatmap(vm, c, c.bounds()), 2);
  EXPECT_EQ(row(c, 0), "■ ■ ■ ■ ■");
  EXPECT_EQ(row(c, 1), "■ ■ ■ +4");                // to_text drops trailing blanks
  EXPECT_EQ(c.at(4, 0).role, Role::StateRunning);  // the third item
  EXPECT_EQ(c.at(6, 0).role, Role::StateActive);   // the fourth
  snapshot::expect_snapshot(c, "heatmap", "overflow");
}

TEST(Heatmap, FewItemsUseOneRow) {
  Canvas c(12, 3);
  HeatmapVm vm{{Role::StateFailure, Role::StatePreparing, Role::StateRunning}};
  EXPECT_EQ(render_heatmap(vm, c, c.bounds()), 1);
  EXPECT_EQ(row(c, 0), "■ ■ ■");
  EXPECT_EQ(c.at(2, 0).role, Role::StatePreparing);
  snapshot::expect_snapshot(c, "heatmap", "one_row");
}

TEST(Heatmap, NoItemsDrawNothing) {
  Canvas c(4, 1);
  EXPECT_EQ(render_heatmap({}, c, c.bounds()), 0);
  EXPECT_EQ(row(c, 0), "");
}

// 10 cells: 7 of 10 done is 7 cells; 5 done and 1 failed of 12 is 6/12 = 5 cells, the failed
// one's 10/12 rounds to none but a failure always shows; 1 of 1000 still shows a cell.
TEST(ProgressBar, CellsInProportionFailuresNeverHidden) {
  EXPECT_EQ(progress_bar({7, 0, 10}, 10), "███████░░░");
  EXPECT_EQ(progress_bar({5, 1, 12}, 10), "████×░░░░░");
  EXPECT_EQ(progress_bar({0, 3, 3}, 4), "××××");
  EXPECT_EQ(progress_bar({1, 0, 1000}, 5), "█░░░░");
  EXPECT_EQ(progress_bar({0, 0, 0}, 3), "░░░");
  EXPECT_EQ(progress_bar({8, 2, 10}, 10), "████████××");
}

TEST(ProgressBar, PercentOfFinished) {
  EXPECT_EQ(progress_percent({5, 1, 12}), "50%");
  EXPECT_EQ(progress_percent({2, 0, 3}), "66%");
  EXPECT_EQ(progress_percent({3, 0, 3}), "100%");
  EXPECT_EQ(progress_percent({0, 0, 0}), "-");
}

}  // namespace
}  // namespace trainyard::heatmap_test
