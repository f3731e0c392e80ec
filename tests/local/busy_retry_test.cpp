#include "local/busy_retry.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace trainyard::busy_retry_test {
namespace {

using std::chrono::milliseconds;

TEST(BusyRetry, DelaysDoubleUpToTheCapWithinTheirUpperHalf) {
  BusyBackoff b{milliseconds(100), milliseconds(1000), {}};
  EXPECT_EQ(backoff_delay(b, 0, 0.0), milliseconds(50));
  EXPECT_EQ(backoff_delay(b, 0, 0.999), milliseconds(99));
  EXPECT_EQ(backoff_delay(b, 1, 0.0), milliseconds(100));
  EXPECT_EQ(backoff_delay(b, 3, 0.5), milliseconds(600));   // 800: 400 + 200
  EXPECT_EQ(backoff_delay(b, 4, 0.0), milliseconds(500));   // 1600, capped at 1000
  EXPECT_EQ(backoff_delay(b, 60, 0.5), milliseconds(750));  // no overflow far out
}

TEST(BusyRetry, RetriesWhileBusyThenStops) {
  std::vector<milliseconds> slept;
  BusyBackoff b{milliseconds(100), milliseconds(1000), [&](milliseconds d) { slept.push_back(d); }};
  int tries = 0, told = 0;
  auto r = write_until_stored(
      [&]() -> Result<void> {
        if (++tries < 6) return make_error(ErrorKind::Busy, "database is locked");
        return ok_result();
      },
      [&](const Error& e, milliseconds) {
        ++told;
        EXPECT_EQ(e.message, "database is locked");
      },
      b);
  EXPECT_TRUE(r.ok());
  EXPECT_EQ(tries, 6);
  EXPECT_EQ(told, 5);
  ASSERT_EQ(slept.size(), 5u);
  EXPECT_GE(slept[4], milliseconds(500));
  EXPECT_LE(slept[4], milliseconds(1000));
}

TEST(BusyRetry, OtherErrorsAreNotRetried) {
  int tries = 0;
  BusyBackoff b{milliseconds(1), milliseconds(1), [](milliseconds) {}};
  auto r = write_until_stored(
      [&]() -> Result<void> {
        ++tries;
        return make_error(ErrorKind::Db, "disk I/O error");
      },
      nullptr, b);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Db);
  EXPECT_EQ(tries, 1);
}

}  // namespace
}  // namespace trainyard::busy_retry_test
