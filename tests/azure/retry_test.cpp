// The retry policy: which statuses are retried and how long to wait before each retry.
#include <ctime>
#include <string>

#include <gtest/gtest.h>

#include "azure/retry.hpp"

namespace trainyard::azure::retry_test {
namespace {

using namespace std::chrono_literals;
using std::chrono::milliseconds;
using std::chrono::system_clock;

RetryPolicy no_jitter() {
  RetryPolicy p;
  p.jitter = 0.0;
  return p;
}

HttpResponse with_header(std::string name, std::string value, int status = 429) {
  HttpResponse r;
  r.status = status;
  r.headers = {{std::move(name), std::move(value)}};
  return r;
}

// IMF-fixdate in the C locale, as servers send it.
std::string http_date(system_clock::time_point t) {
  std::time_t secs = system_clock::to_time_t(t);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  char buf[64];
  std::strftime(buf, sizeof buf, "%a, %d %b %Y %H:%M:%S GMT", &tm);
  return buf;
}

TEST(RetryTest, RetryableStatuses) {
  for (int s : {408, 429, 500, 502, 503, 504}) EXPECT_TRUE(is_retryable_status(s)) << s;
  for (int s : {0, 200, 201, 304, 400, 401, 403, 404, 409, 412, 501, 505}) {
    EXPECT_FALSE(is_retryable_status(s)) << s;
  }
}

TEST(RetryTest, ExponentialGrowthWithoutJitter) {
  std::mt19937_64 rng(1);
  RetryPolicy p = no_jitter();
  EXPECT_EQ(retry_delay(p, 1, nullptr, rng), 1000ms);
  EXPECT_EQ(retry_delay(p, 2, nullptr, rng), 2000ms);
  EXPECT_EQ(retry_delay(p, 3, nullptr, rng), 4000ms);
  EXPECT_EQ(retry_delay(p, 4, nullptr, rng), 8000ms);
  HttpResponse plain;
  plain.status = 503;
  EXPECT_EQ(retry_delay(p, 2, &plain, rng), 2000ms);  // no Retry-After: backoff
}

TEST(RetryTest, CapBoundsTheBackoff) {
  std::mt19937_64 rng(2);
  RetryPolicy p = no_jitter();
  EXPECT_EQ(retry_delay(p, 7, nullptr, rng), 60000ms);
  EXPECT_EQ(retry_delay(p, 40, nullptr, rng), 60000ms);
  EXPECT_EQ(retry_delay(p, 1000, nullptr, rng), 60000ms);
  p.jitter = 0.5;
  for (int i = 0; i < 100; ++i) {
    auto d = retry_delay(p, 30, nullptr, rng);
    EXPECT_LE(d, 60000ms);
    EXPECT_GE(d, 30000ms);
  }
}

TEST(RetryTest, JitterStaysInRangeAndSpreads) {
  std::mt19937_64 rng(3);
  RetryPolicy p;  // base 1 s, jitter 0.5
  milliseconds lo = 1h, hi = 0ms;
  for (int i = 0; i < 2000; ++i) {
    auto d = retry_delay(p, 3, nullptr, rng);
    ASSERT_GE(d, 2000ms);
    ASSERT_LE(d, 4000ms);
    lo = std::min(lo, d);
    hi = std::max(hi, d);
  }
  EXPECT_LT(lo, 2200ms);
  EXPECT_GT(hi, 3800ms);
}

TEST(RetryTest, RetryAfterSeconds) {
  std::mt19937_64 rng(4);
  RetryPolicy p;
  auto r = with_header("Retry-After", "7");
  EXPECT_EQ(retry_delay(p, 1, &r, rng), 7000ms);
  auto zero = with_header("retry-after", "0", 503);
  EXPECT_EQ(retry_delay(p, 3, &zero, rng), 0ms);
  auto huge = with_header("Retry-After", "99999999999999999999");
  EXPECT_EQ(retry_delay(p, 1, &huge, rng), p.cap);
  auto hour = with_header("Retry-After", "3600");
  EXPECT_EQ(retry_delay(p, 1, &hour, rng), 60000ms);
}

TEST(RetryTest, RetryAfterHttpDate) {
  std::mt19937_64 rng(5);
  RetryPolicy p;
  auto r = with_header("Retry-After", http_date(system_clock::now() + 20s));
  auto d = retry_delay(p, 1, &r, rng);
  EXPECT_GE(d, 18000ms);
  EXPECT_LE(d, 21000ms);
  auto past = with_header("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT");
  EXPECT_EQ(retry_delay(p, 4, &past, rng), 0ms);
}

TEST(RetryTest, ParseRetryAfterForms) {
  // Sun, 06 Nov 1994 08:49:37 GMT = 784111777.
  auto now = system_clock::time_point(std::chrono::seconds(784111777 - 90));
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:49:37 GMT", now), milliseconds(90000));
  EXPECT_EQ(parse_retry_after("Sunday, 06-Nov-94 08:49:37 GMT", now), milliseconds(90000));
  EXPECT_EQ(parse_retry_after("Sun Nov  6 08:49:37 1994", now), milliseconds(90000));
  EXPECT_EQ(parse_retry_after(" 12 ", now), milliseconds(12000));
  EXPECT_EQ(parse_retry_after("Sun, 06 Nov 1994 08:48:00 GMT", now), milliseconds(0));
  for (const char* bad : {"", "soon", "-5", "1.5", "Sun, 31 Feb 1994 08:49:37 GMT",
                          "Sun, 06 Foo 1994 08:49:37 GMT", "Sun, 06 Nov 1994 25:49:37 GMT"}) {
    EXPECT_FALSE(parse_retry_after(bad, now).has_value()) << bad;
  }
}

TEST(RetryTest, MillisecondHeaders) {
  std::mt19937_64 rng(6);
  RetryPolicy p;
  auto ms = with_header("retry-after-ms", "250");
  EXPECT_EQ(retry_delay(p, 3, &ms, rng), 250ms);
  auto xms = with_header("x-ms-retry-after-ms", "1500", 503);
  EXPECT_EQ(retry_delay(p, 1, &xms, rng), 1500ms);
  auto capped = with_header("x-ms-retry-after-ms", "600000");
  EXPECT_EQ(retry_delay(p, 1, &capped, rng), 60000ms);
  // The millisecond form is the more precise one and wins over Retry-After.
  HttpResponse both;
  both.status = 429;
  both.headers = {{"Retry-After", "5"}, {"Retry-After-Ms", "4500"}};
  EXPECT_EQ(retry_delay(p, 1, &both, rng), 4500ms);
}

TEST(RetryTest, UnreadableRetryAfterFallsBackToBackoff) {
  std::mt19937_64 rng(7);
  RetryPolicy p = no_jitter();
  auto r = with_header("Retry-After", "later please");
  EXPECT_EQ(retry_delay(p, 2, &r, rng), 2000ms);
  auto bad_ms = with_header("retry-after-ms", "x");
  EXPECT_EQ(retry_delay(p, 3, &bad_ms, rng), 4000ms);
}

}  // namespace
}  // namespace trainyard::azure::retry_test
