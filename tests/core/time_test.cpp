#include "core/time.hpp"

#include <gtest/gtest.h>

namespace trainyard::time_test {
namespace {

TEST(Time, FormatsIso8601WithSevenDigits) {
  auto t = parse_iso8601("2016-11-22T18:55:25.2608598Z");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(format_iso8601(*t), "2016-11-22T18:55:25.2608590Z");
  EXPECT_EQ(format_clock_utc(*t), "18:55:25");  // the second, not rounded up
}

TEST(Time, ParsesWithoutFraction) {
  auto t = parse_iso8601("2024-02-29T00:00:00Z");
  ASSERT_TRUE(t.ok());
  EXPECT_EQ(format_iso8601(*t), "2024-02-29T00:00:00.0000000Z");
}

TEST(Time, RejectsGarbage) {
  EXPECT_FALSE(parse_iso8601("yesterday").ok());
  EXPECT_FALSE(parse_iso8601("2024-13-01T00:00:00Z").ok());
  EXPECT_FALSE(parse_iso8601("2024-01-01T00:00:00+02:00").ok());
}

TEST(Time, IsoDurationsRoundTrip) {
  for (const char* s :
       {"PT15M", "P1DT2H", "PT1H30M", "PT0.5S", "PT0S", "P10675199DT2H48M5.477581S"}) {
    auto d = parse_iso_duration(s);
    ASSERT_TRUE(d.ok()) << s;
    EXPECT_EQ(format_iso_duration(*d), s);
  }
}

TEST(Time, HumanDurations) {
  EXPECT_EQ(parse_human_duration("90s")->count(), 90'000'000);
  EXPECT_EQ(parse_human_duration("2h30m")->count(), 9'000'000'000);
  EXPECT_EQ(parse_human_duration("1.5h")->count(), 5'400'000'000);
  EXPECT_EQ(parse_human_duration("45")->count(), 45'000'000);
  EXPECT_EQ(parse_human_duration("PT1M")->count(), 60'000'000);
  EXPECT_FALSE(parse_human_duration("soon").ok());
  EXPECT_FALSE(parse_human_duration("").ok());
}

TEST(Time, Ages) {
  using namespace std::chrono;
  EXPECT_EQ(format_age(seconds(5)), "5s");
  EXPECT_EQ(format_age(minutes(3)), "3m");
  EXPECT_EQ(format_age(hours(49)), "2d");
}

// A run of 1m57s read `1m` in RAN; a run time keeps its second unit below a day.
TEST(Time, RunTimes) {
  using namespace std::chrono;
  EXPECT_EQ(format_run_time(seconds(0)), "0s");
  EXPECT_EQ(format_run_time(seconds(59)), "59s");
  EXPECT_EQ(format_run_time(seconds(117)), "1m57s");
  EXPECT_EQ(format_run_time(seconds(3599)), "59m59s");
  EXPECT_EQ(format_run_time(seconds(3600 + 5 * 60 + 59)), "1h05m");
  EXPECT_EQ(format_run_time(hours(51) + minutes(59)), "2d03h");
  EXPECT_EQ(format_run_time(-seconds(3)), "0s");
}

}  // namespace
}  // namespace trainyard::time_test
