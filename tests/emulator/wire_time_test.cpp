// The emulator's own reading of DateTime and TimeSpan text, checked against the forms in the
// Batch REST specs, and against what the client (core/time) writes.
#include "wire_time.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <string>

#include "core/time.hpp"
#include "emulator/odata_filter.hpp"

namespace trainyard::emu::wire_time_test {
namespace {

constexpr int64_t kSecond = 1'000'000;
// 2025-01-02T03:04:05Z: 20090 days after 1970-01-01 (55 years, 14 of them leap) plus 11045 s.
constexpr int64_t k20250102T030405 = (20090LL * 86400 + 11045) * kSecond;
// 2016-11-22T18:55:25Z: 17127 days (46 years, 11 of them leap, and 326 days into 2016).
constexpr int64_t k20161122T185525 = (17127LL * 86400 + 18 * 3600 + 55 * 60 + 25) * kSecond;

TEST(WireTime, ReadsTheServiceDatetimeForms) {
  EXPECT_EQ(read_wire_time("2025-01-02T03:04:05.1234567Z"), k20250102T030405 + 123456);
  EXPECT_EQ(read_wire_time("2025-01-02T03:04:05Z"), k20250102T030405);
  EXPECT_EQ(read_wire_time("2025-01-02T03:04:05.5+00:00"), k20250102T030405 + 500000);
  EXPECT_EQ(read_wire_time("2016-11-22T18:55:25.2608590Z"), k20161122T185525 + 260859);
  EXPECT_EQ(read_wire_time("2014-07-31T21:11:58.236Z"),
            ((16282LL * 86400 + 21 * 3600 + 11 * 60 + 58) * kSecond) + 236000);
  // OData's datetime literal: seconds and the zone may be left out; UTC is meant.
  EXPECT_EQ(read_wire_time("2025-01-02T03:04"), k20250102T030405 - 5 * kSecond);
  EXPECT_EQ(read_wire_time("1970-01-01T00:00:00Z"), 0);
  EXPECT_EQ(read_wire_time("2024-02-29T00:00:00Z"), 19782LL * 86400 * kSecond);
}

TEST(WireTime, RejectsWhatIsNotAUtcDatetime) {
  for (const char* bad :
       {"", "yesterday", "2025-01-02", "2025-01-02T03", "2025-01-02T03:04:05+02:00",
        "2025-01-02T03:04:05-05:00", "2016-13-01T00:00:00Z", "2023-02-29T00:00:00Z",
        "2025-01-02T24:00:00Z", "2025-01-02T03:60:00Z", "2025-01-02T03:04:61Z",
        "2025-01-02 03:04:05Z", "2025-01-02T03:04:05.Z", "2025-01-02T03:04:05.12345678Z",
        "2025-01-02T03:04:05ZZ", "25-01-02T03:04:05Z", "2025-1-02T03:04:05Z",
        "+2025-01-02T03:04:05Z"}) {
    EXPECT_EQ(read_wire_time(bad), std::nullopt) << bad;
  }
}

TEST(WireTime, ReadsTheServiceDurationForms) {
  EXPECT_EQ(read_wire_duration("PT1H30M"), 5400 * kSecond);
  EXPECT_EQ(read_wire_duration("P1DT2H"), 93600 * kSecond);
  EXPECT_EQ(read_wire_duration("PT0.5S"), kSecond / 2);
  EXPECT_EQ(read_wire_duration("PT15M"), 900 * kSecond);
  EXPECT_EQ(read_wire_duration("PT0S"), 0);
  EXPECT_EQ(read_wire_duration("P2D"), 2 * 86400 * kSecond);
  EXPECT_EQ(read_wire_duration("PT1H2M3.0000004S"), 3723 * kSecond);  // 4 ticks: under 1 µs
  EXPECT_EQ(read_wire_duration("PT90M"), 5400 * kSecond);
  // TimeSpan.MaxValue, the service's "unlimited": INT64_MAX ticks of 100 ns.
  EXPECT_EQ(read_wire_duration("P10675199DT2H48M5.4775807S"), INT64_MAX / 10);
}

TEST(WireTime, RejectsNegativeAndMalformedDurations) {
  for (const char* bad : {"",
                          "P",
                          "PT",
                          "P1DT",
                          "-PT1H",
                          "PT-1H",
                          "+PT1H",
                          "PT1H30M ",
                          " PT1H",
                          "pt1h",
                          "PT30M1H",
                          "PT1H1H",
                          "PT1.5H",
                          "PT1.0M",
                          "P1W",
                          "P1Y",
                          "P1M",
                          "P1H",
                          "PT1D",
                          "PT1",
                          "PT.5S",
                          "PT1.S",
                          "PT0.12345678S",
                          "1H",
                          "P10675199DT2H48M5.4775808S",
                          "P10675200D",
                          "PT99999999999999H"}) {
    EXPECT_EQ(read_wire_duration(bad), std::nullopt) << bad;
  }
}

TEST(WireTime, WritesDurationsAsTheServiceDoes) {
  EXPECT_EQ(write_wire_duration(0), "PT0S");
  EXPECT_EQ(write_wire_duration(5400 * kSecond), "PT1H30M");
  EXPECT_EQ(write_wire_duration(93600 * kSecond), "P1DT2H");
  EXPECT_EQ(write_wire_duration(kSecond / 2), "PT0.5S");
  EXPECT_EQ(write_wire_duration(86400 * kSecond), "P1D");
  EXPECT_EQ(write_wire_duration(86400 * kSecond + 1), "P1DT0.000001S");
  EXPECT_EQ(write_wire_duration(3 * kSecond), "PT3S");
  // The service's "unlimited" is given back as it was sent, though microseconds cannot hold it.
  EXPECT_EQ(write_wire_duration(*read_wire_duration("P10675199DT2H48M5.4775807S")),
            "P10675199DT2H48M5.4775807S");
  EXPECT_EQ(write_wire_duration(INT64_MAX / 10 - 1), "P10675199DT2H48M5.477579S");
}

// The client writes with core/time, the emulator reads with its own code: both must land on the
// same instant and span.
TEST(WireTime, WhatTheClientWritesTheEmulatorReadsBackExactly) {
  for (int64_t us : {int64_t{0}, k20250102T030405 + 123456, k20161122T185525 + 260859,
                     int64_t{4102444799999999}}) {
    const std::string text = format_iso8601(from_micros(us));
    EXPECT_EQ(read_wire_time(text), us) << text;
  }
  for (int64_t us : {int64_t{0}, kSecond / 2, 5400 * kSecond, 93600 * kSecond + 1,
                     int64_t{7} * 86400 * kSecond, int64_t{59} * kSecond + 999999}) {
    const std::string text = format_iso_duration(Duration(us));
    EXPECT_EQ(read_wire_duration(text), us) << text;
    EXPECT_EQ(write_wire_duration(us), text);
  }
}

// The filter incremental sync sends (`stateTransitionTime ge datetime'…'`), as the client
// formats it: the instant itself matches, one microsecond before does not.
TEST(WireTime, TheClientsSinceFilterSelectsFromItsInstant) {
  const Timestamp since = from_micros(k20250102T030405 + 123456);
  auto filter = Filter::parse("stateTransitionTime ge datetime'" + format_iso8601(since) + "'",
                              ListKind::Tasks);
  ASSERT_TRUE(filter.ok());
  auto at = [](Timestamp t) {
    return [t](std::string_view prop) -> FilterValue {
      return prop == "stateTransitionTime" ? FilterValue(t) : FilterValue{};
    };
  };
  EXPECT_TRUE(filter->matches(at(since)));
  EXPECT_FALSE(filter->matches(at(since - Duration(1))));
}

}  // namespace
}  // namespace trainyard::emu::wire_time_test
