#include "widgets/help_overlay.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard::help_overlay_test {
namespace {

HelpVm help() {
  return {"Help",
          {{"global", {{"?", "help"}, {":", "command"}, {"q", "quit"}, {"Tab", "next pane"}}},
           {"tasks", {{"Enter", "open logs"}, {"/", "filter"}, {"C-d", "terminate"}}},
           {"logs", {{"f", "follow"}, {"w", "wrap"}, {"n", "next match"}, {"🔍", "搜索"}}}}};
}

TEST(HelpOverlay, OneColumn) {
  Canvas c(40, 20);
  render_help(help(), c, c.bounds());
  snapshot::expect_snapshot(c, "help", "one_column");
}

TEST(HelpOverlay, FlowsIntoColumns) {
  Canvas c(60, 11);
  render_help(help(), c, c.bounds());
  snapshot::expect_snapshot(c, "help", "columns");
}

TEST(HelpOverlay, TooSmallIsMarked) {
  Canvas c(24, 8);
  render_help(help(), c, c.bounds());
  snapshot::expect_snapshot(c, "help", "cut");
}

}  // namespace
}  // namespace trainyard::help_overlay_test
