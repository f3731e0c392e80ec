#include "widgets/bars.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard::bars_test {
namespace {

using std::chrono::seconds;

TEST(StatusBar, InfoWithAge) {
  Canvas c(50, 1);
  render_status_bar({"3 tasks started", StatusLevel::Info, seconds(3), false, ""}, c, c.bounds());
  snapshot::expect_snapshot(c, "status_bar", "info");
}

TEST(StatusBar, ErrorStaleWithNote) {
  Canvas c(60, 1);
  render_status_bar(
      {"GET pools: 403 AuthenticationFailed", StatusLevel::Error, seconds(125), true, "read-only"},
      c, c.bounds());
  snapshot::expect_snapshot(c, "status_bar", "error_stale");
}

TEST(StatusBar, NarrowTruncatesMessage) {
  Canvas c(24, 1);
  render_status_bar(
      {"submitted job 学习率扫描 to pool gpu", StatusLevel::Ok, seconds(0), false, ""}, c,
      c.bounds());
  snapshot::expect_snapshot(c, "status_bar", "narrow");
}

// The message names the pane and action that made it.
TEST(StatusBar, MessageWithItsOrigin) {
  Canvas c(60, 1);
  StatusBarVm vm{"stopping default/t1", StatusLevel::Ok, seconds(3), false, ""};
  vm.origin = "Tasks · stop";
  render_status_bar(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "status_bar", "origin");
}

// A stale message is dimmed and says so in words (mono terminals show no colour).
TEST(StatusBar, StaleMessageIsMarked) {
  Canvas c(70, 1);
  StatusBarVm vm{"unknown command ':x'", StatusLevel::Error, seconds(3), false, ""};
  vm.origin = "Jobs · command";
  vm.message_stale = true;
  render_status_bar(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "status_bar", "stale_message");
}

// Where the message and its origin do not both fit, the message keeps the room (a stale one
// still says so). 40 cells less the age (11) and its gap leave 25 for text.
TEST(StatusBar, LongMessageGivesUpItsOriginFirst) {
  Canvas c(40, 1);
  StatusBarVm vm{"refused: 403", StatusLevel::Error, seconds(3), false, ""};
  vm.origin = "emu Pools · resize";
  render_status_bar(vm, c, c.bounds());
  EXPECT_EQ(c.to_text(), " refused: 403" + std::string(15, ' ') + "data 3s old");
  vm.message_stale = true;
  render_status_bar(vm, c, c.bounds());
  EXPECT_EQ(c.to_text(), " [earlier] refused: 403" + std::string(5, ' ') + "data 3s old");
}

TEST(StatusBar, NoData) {
  Canvas c(30, 1);
  render_status_bar({"", StatusLevel::Info, std::nullopt, false, ""}, c, c.bounds());
  snapshot::expect_snapshot(c, "status_bar", "no_data");
}

TEST(Crumbs, FitAndNarrow) {
  Canvas c(30, 3);
  CrumbsVm vm{{"local", "default", "task-1"}};
  render_crumbs(vm, c, {0, 0, 30, 1});
  render_crumbs(vm, c, {0, 1, 18, 1});
  render_crumbs({{"emulator", "实验", "学习率扫描-第一组"}}, c, {0, 2, 14, 1});
  snapshot::expect_snapshot(c, "crumbs", "fit_and_narrow");
}

TEST(HintBar, DropsWhatDoesNotFit) {
  Canvas c(40, 2);
  HintBarVm vm{{{"Enter", "logs"}, {"/", "filter"}, {"C-d", "delete"}, {"?", "help"}}};
  render_hint_bar(vm, c, {0, 0, 40, 1});
  render_hint_bar(vm, c, {0, 1, 24, 1});
  snapshot::expect_snapshot(c, "hint_bar", "normal_and_narrow");
}

}  // namespace
}  // namespace trainyard::bars_test
