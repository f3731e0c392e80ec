#include "widgets/charts.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "snapshot.hpp"

namespace trainyard::charts_test {
namespace {

std::vector<double> loss_curve(int n, double scale) {
  std::vector<double> v;
  for (int i = 0; i < n; ++i)
    v.push_back(scale * (2.5 * std::exp(-i / 12.0) + 0.3 + 0.05 * std::sin(i)));
  return v;
}

TEST(Sparkline, OneRow) {
  Canvas c(20, 1);
  render_sparkline({{0, 1, 2, 3, 4, 5, 6, 7, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 0.0, 8.0}, c, c.bounds());
  snapshot::expect_snapshot(c, "sparkline", "ramp");
}

TEST(Sparkline, NarrowShowsNewestAndGaps) {
  Canvas c(8, 2);
  SparklineVm vm;
  vm.values = loss_curve(30, 1.0);
  vm.values[27] = NAN;
  render_sparkline(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "sparkline", "narrow_two_rows");
}

TEST(Sparkline, FlatValues) {
  Canvas c(6, 1);
  render_sparkline({{3, 3, 3}, std::nullopt, std::nullopt}, c, c.bounds());
  snapshot::expect_snapshot(c, "sparkline", "flat");
}

TEST(LineChart, TwoSeries) {
  Canvas c(50, 10);
  LineChartVm vm;
  vm.title = "loss";
  vm.series = {{"train", loss_curve(60, 1.0), Role::ChartSeries1},
               {"val", loss_curve(60, 1.15), Role::ChartSeries2}};
  vm.x_left = "0";
  vm.x_right = "step 600";
  render_line_chart(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "line_chart", "two_series");
}

TEST(LineChart, NarrowFixedRange) {
  Canvas c(16, 5);
  LineChartVm vm;
  vm.title = "gpu util 学习";
  vm.series = {{"util", {0, 50, 100, 75, 25}, Role::ChartSeries3}};
  vm.y_min = 0;
  vm.y_max = 100;
  vm.x_left = "-5m";
  vm.x_right = "now";
  render_line_chart(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "line_chart", "narrow");
}

// Two attempts of one task: the line breaks between them and a rule marks where the second began.
TEST(LineChart, AttemptMarker) {
  Canvas c(50, 10);
  LineChartVm vm;
  vm.title = "loss · stdout";
  auto values = loss_curve(30, 0.4);
  values.push_back(NAN);
  auto second = loss_curve(19, 1.0);
  values.insert(values.end(), second.begin(), second.end());
  vm.series = {{"stdout", values, Role::ChartSeries1}};
  vm.markers = {{31, "attempt 1"}};
  vm.x_left = "0";
  vm.x_right = "50 pts";
  render_line_chart(vm, c, c.bounds());
  snapshot::expect_snapshot(c, "line_chart", "attempt_marker");
  // The rule stands where value 31 of 50 is drawn: dot round(31 * 85 / 49) = 54 of 86, cell 27
  // of the plot, which starts after the y labels (`0.1959`, 6 cells) and the axis.
  const int rule_x = 7 + 27;
  EXPECT_EQ(c.at(rule_x, 8).grapheme, "┊");
  EXPECT_EQ(c.at(rule_x, 8).role, Role::ChartAxis);
}

TEST(LineChart, AxisFormat) {
  EXPECT_EQ(format_axis_value(0.012345), "0.01235");
  EXPECT_EQ(format_axis_value(15000), "1.5e+04");
  EXPECT_EQ(format_axis_value(2), "2");
}

TEST(Gauge, Levels) {
  Canvas c(30, 4);
  render_gauge({"GPU0", 0.42, "", 5}, c, {0, 0, 30, 1});
  render_gauge({"GPU1", 0.7, "", 5}, c, {0, 1, 30, 1});
  render_gauge({"mem", 0.93, "74/80G", 5}, c, {0, 2, 30, 1});
  render_gauge({"显存", 1.5, "", 5}, c, {0, 3, 30, 1});
  snapshot::expect_snapshot(c, "gauge", "levels");
}

TEST(Gauge, Narrow) {
  Canvas c(12, 1);
  render_gauge({"GPU0", 0.5, "", 0}, c, c.bounds());
  snapshot::expect_snapshot(c, "gauge", "narrow");
}

}  // namespace
}  // namespace trainyard::charts_test
