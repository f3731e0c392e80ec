#include "widgets/bars.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard {
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
}  // namespace trainyard
