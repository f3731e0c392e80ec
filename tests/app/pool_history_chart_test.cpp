#include "pool_history_chart.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace trainyard::pool_history_chart_test {
namespace {

using std::chrono::seconds;

// A bucket boundary, so that `now - N s` falls in bucket N / 30 before now's.
const Timestamp kNow = Timestamp{} + seconds(30 * 60'000'000LL);

PoolSample sample(int ago_s, int64_t dedicated, int64_t spot, int64_t running) {
  return {kNow - seconds(ago_s), dedicated, spot, running};
}

size_t sampled(const Series& s) {
  size_t n = 0;
  for (double v : s.values) n += !std::isnan(v);
  return n;
}

// An hour ago, half an hour, ten minutes and now: 3600 / 30 + 1 = 121 buckets, the samples in
// buckets 0, 60, 100 and 120; before, the four were spread evenly (at 0, 40, 80 and 120).
TEST(PoolHistoryChart, SamplesKeepTheirPlaceOnTheTimeAxis) {
  auto c = pool_history_charts(
      {sample(3600, 2, 0, 1), sample(1800, 4, 1, 3), sample(600, 5, 3, 8), sample(0, 5, 2, 6)},
      kNow);
  ASSERT_EQ(c.nodes.series.size(), 2u);
  const auto& dedicated = c.nodes.series[0].values;
  ASSERT_EQ(dedicated.size(), 121u);
  EXPECT_EQ(sampled(c.nodes.series[0]), 4u) << "30 and 20 minutes apart: gaps, not lines";
  EXPECT_EQ(dedicated[0], 2);
  EXPECT_EQ(dedicated[60], 4);
  EXPECT_EQ(dedicated[100], 5);
  EXPECT_EQ(dedicated[120], 5);
  EXPECT_TRUE(std::isnan(dedicated[40]));
  EXPECT_EQ(c.nodes.series[1].values[100], 3);
  EXPECT_EQ(c.running.series.at(0).values[60], 3);
  EXPECT_EQ(c.nodes.title, "nodes (5 + 2 Spot)");
  EXPECT_EQ(c.running.title, "running tasks (6)");
  EXPECT_EQ(c.nodes.x_left, "1h ago");
  EXPECT_EQ(c.nodes.x_right, "now");
  EXPECT_EQ(c.nodes.y_min, 0);
}

// Listings 45 s apart (one or two buckets) draw a line; after 10 buckets without one, a gap.
TEST(PoolHistoryChart, ShortGapsHoldTheLastValueLongOnesStayEmpty) {
  // Buckets 0, 2 (60 s later), 13 (a gap of 11) and 15 (now, 450 s after the first).
  auto c = pool_history_charts(
      {sample(450, 1, 0, 0), sample(390, 2, 0, 0), sample(60, 3, 0, 0), sample(0, 4, 0, 0)}, kNow);
  const auto& v = c.nodes.series[0].values;
  ASSERT_EQ(v.size(), 16u);
  EXPECT_EQ(v[1], 1) << "one bucket between two samples holds the earlier value";
  for (size_t i = 3; i < 13; ++i) EXPECT_TRUE(std::isnan(v[i])) << i;
  EXPECT_EQ(v[14], 3);
  EXPECT_EQ(v[15], 4);
  EXPECT_EQ(c.nodes.x_left, "7m ago");
}

// The window ends now even when the last sample is older: the chart shows since when nothing
// was listed.
TEST(PoolHistoryChart, TheWindowEndsNow) {
  auto c = pool_history_charts({sample(900, 2, 0, 0), sample(870, 2, 0, 0)}, kNow);
  const auto& v = c.nodes.series[0].values;
  ASSERT_EQ(v.size(), 31u);
  EXPECT_EQ(v[1], 2);
  EXPECT_TRUE(std::isnan(v[30]));
  EXPECT_TRUE(pool_history_charts({}, kNow).nodes.series.empty());
}

}  // namespace
}  // namespace trainyard::pool_history_chart_test
