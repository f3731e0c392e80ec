#include "gpu_history_chart.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace trainyard::gpu_history_chart_test {
namespace {

using std::chrono::milliseconds;
using std::chrono::seconds;

GpuPoint point(Timestamp at, unsigned util) {
  GpuPoint p;
  p.at = at;
  p.util_percent = util;
  return p;
}

size_t sampled(const Series& s) {
  size_t n = 0;
  for (double v : s.values) n += !std::isnan(v);
  return n;
}

// 40 s of samples stay 40 s wide: before, they were stretched over the whole "last 10 min".
TEST(GpuHistoryChart, SamplesSitAtTheirOwnSecondOfTheTenMinutes) {
  Timestamp newest = Timestamp{} + seconds(100000);
  GpuHistory h;
  h.index = 0;
  for (int i = 39; i >= 0; --i) h.points.push_back(point(newest - seconds(i), 100u));
  auto vm = gpu_history_chart({h}, newest);
  ASSERT_EQ(vm.series.size(), 1u);
  const auto& v = vm.series[0].values;
  ASSERT_EQ(v.size(), 600u);
  EXPECT_EQ(sampled(vm.series[0]), 40u);
  EXPECT_TRUE(std::isnan(v[559])) << "41 s ago nothing was sampled";
  EXPECT_EQ(v[560], 100.0);
  EXPECT_EQ(v[599], 100.0);
  EXPECT_EQ(vm.x_left, "10 min ago");
  EXPECT_EQ(vm.x_right, "now");
  EXPECT_EQ(vm.series[0].name, "GPU 0");
}

TEST(GpuHistoryChart, OlderThanTenMinutesIsLeftOutAndValuesKeepTheirSecond) {
  Timestamp newest = Timestamp{} + seconds(100000);
  GpuHistory h;
  h.index = 1;
  h.points = {point(newest - seconds(700), 5u), point(newest - seconds(599), 10u),
              point(newest - seconds(300), 20u), point(newest, 30u)};
  auto vm = gpu_history_chart({h}, newest);
  const auto& v = vm.series[0].values;
  EXPECT_EQ(sampled(vm.series[0]), 3u);
  EXPECT_EQ(v[0], 10.0);
  EXPECT_EQ(v[299], 20.0);
  EXPECT_EQ(v[599], 30.0);
}

TEST(GpuHistoryChart, JitterLeavesNoHoleButARealGapStays) {
  Timestamp newest = Timestamp{} + seconds(100000);
  GpuHistory h;
  // 3.6 s and 1.9 s ago round to 4 s and 2 s: the second between them has no sample.
  h.points = {point(newest - milliseconds(10000), 1u), point(newest - milliseconds(4600), 2u),
              point(newest - milliseconds(3600), 3u), point(newest - milliseconds(1900), 4u)};
  auto vm = gpu_history_chart({h}, newest);
  const auto& v = vm.series[0].values;
  EXPECT_EQ(v[589], 1.0);
  EXPECT_TRUE(std::isnan(v[590])) << "a gap of several seconds stays a gap";
  EXPECT_EQ(v[594], 2.0);
  EXPECT_EQ(v[595], 3.0);
  EXPECT_EQ(v[596], 3.0) << "one empty second between samples is bridged";
  EXPECT_EQ(v[597], 4.0);
}

}  // namespace
}  // namespace trainyard::gpu_history_chart_test
