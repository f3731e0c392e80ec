// Backoff for the Batch client: the server's own delay when it sends one, else exponential
// backoff with jitter so that many clients throttled together do not come back together.
#include "azure/retry.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <thread>

#include "signing.hpp"

namespace trainyard::azure {

namespace {

using std::chrono::milliseconds;
using std::chrono::system_clock;

// Large enough for any sane delay, small enough that milliseconds of it cannot overflow.
constexpr int64_t kMaxCount = 1'000'000'000'000;

// A non-negative decimal integer, saturating at kMaxCount; nullopt for anything else.
std::optional<int64_t> parse_count(std::string_view s) {
  s = signing::trim(s);
  if (s.empty()) return std::nullopt;
  int64_t value = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    value = std::min(value * 10 + (c - '0'), kMaxCount);
  }
  return value;
}

unsigned month_number(const char* name) {
  static constexpr const char* kMonths[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                            "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  for (unsigned i = 0; i < 12; ++i) {
    if (std::string_view(name) == kMonths[i]) return i + 1;
  }
  return 0;
}

struct DateFields {
  int day = 0, year = 0, hour = 0, minute = 0, second = 0;
  char month[4] = {};
};

// The three forms RFC 9110 §5.6.7 makes recipients accept. sscanf's %s and %d ignore the locale.
bool scan_http_date(const std::string& s, DateFields& f) {
  // IMF-fixdate: Sun, 06 Nov 1994 08:49:37 GMT
  if (std::sscanf(s.c_str(), "%*[^,], %d %3s %d %d:%d:%d GMT", &f.day, f.month, &f.year, &f.hour,
                  &f.minute, &f.second) == 6) {
    return true;
  }
  // RFC 850: Sunday, 06-Nov-94 08:49:37 GMT
  if (std::sscanf(s.c_str(), "%*[^,], %d-%3[A-Za-z]-%d %d:%d:%d GMT", &f.day, f.month, &f.year,
                  &f.hour, &f.minute, &f.second) == 6) {
    if (f.year < 100) f.year += f.year < 70 ? 2000 : 1900;
    return true;
  }
  // asctime: Sun Nov  6 08:49:37 1994
  return std::sscanf(s.c_str(), "%*s %3s %d %d:%d:%d %d", f.month, &f.day, &f.hour, &f.minute,
                     &f.second, &f.year) == 6;
}

std::optional<system_clock::time_point> parse_http_date(std::string_view text) {
  DateFields f;
  if (!scan_http_date(std::string(text), f)) return std::nullopt;
  std::chrono::year_month_day ymd{std::chrono::year{f.year},
                                  std::chrono::month{month_number(f.month)},
                                  std::chrono::day{static_cast<unsigned>(f.day)}};
  bool time_ok = f.hour >= 0 && f.hour < 24 && f.minute >= 0 && f.minute < 60 && f.second >= 0 &&
                 f.second <= 60;
  if (!ymd.ok() || !time_ok || f.day < 1) return std::nullopt;
  return std::chrono::sys_days{ymd} + std::chrono::hours{f.hour} + std::chrono::minutes{f.minute} +
         std::chrono::seconds{f.second};
}

// The delay the response asks for. The millisecond headers come first: they are the more precise
// form of the same request (azure-core does the same).
std::optional<milliseconds> server_delay(const HttpResponse& response,
                                         system_clock::time_point now) {
  for (const char* name : {"retry-after-ms", "x-ms-retry-after-ms"}) {
    if (auto ms = parse_count(response.header(name))) return milliseconds{*ms};
  }
  std::string value = response.header("Retry-After");
  if (value.empty()) return std::nullopt;
  return parse_retry_after(value, now);
}

// base * 2^(attempt-1), capped, then scaled by [1 - jitter, 1]. Capping before the jitter keeps
// retries that have reached the cap spread out instead of all landing on it.
milliseconds backoff(const RetryPolicy& policy, int attempt, std::mt19937_64& rng) {
  int exponent = std::clamp(attempt, 1, 62) - 1;
  double cap = static_cast<double>(std::max<int64_t>(policy.cap.count(), 0));
  double base = static_cast<double>(std::max<int64_t>(policy.base.count(), 0));
  double delay = std::min(std::ldexp(base, exponent), cap);
  double jitter = std::clamp(policy.jitter, 0.0, 1.0);
  std::uniform_real_distribution<double> factor(1.0 - jitter, 1.0);
  return milliseconds{static_cast<milliseconds::rep>(delay * factor(rng))};
}

}  // namespace

bool is_retryable_status(int status) {
  switch (status) {
    case 408:
    case 429:
    case 500:
    case 502:
    case 503:
    case 504:
      return true;
    default:
      return false;
  }
}

std::optional<milliseconds> parse_retry_after(std::string_view value,
                                              system_clock::time_point now) {
  if (auto seconds = parse_count(value))
    return milliseconds{std::min(*seconds, kMaxCount / 1000) * 1000};
  auto when = parse_http_date(signing::trim(value));
  if (!when) return std::nullopt;
  if (*when <= now) return milliseconds{0};
  return std::chrono::ceil<milliseconds>(*when - now);
}

milliseconds retry_delay(const RetryPolicy& policy, int attempt, const HttpResponse* response,
                         std::mt19937_64& rng) {
  if (response != nullptr) {
    if (auto asked = server_delay(*response, system_clock::now())) {
      return std::clamp(*asked, milliseconds{0}, std::max(policy.cap, milliseconds{0}));
    }
  }
  return backoff(policy, attempt, rng);
}

void pause_unless_cancelled(const HttpClient& http, milliseconds delay) {
  const auto until = std::chrono::steady_clock::now() + delay;
  while (!http.cancelled()) {
    const auto left =
        std::chrono::duration_cast<milliseconds>(until - std::chrono::steady_clock::now());
    if (left <= milliseconds{0}) return;
    std::this_thread::sleep_for(std::min(milliseconds{20}, left));
  }
}

bool never_reached_server(const Error& e) {
  return e.message.find("Couldn't connect") != std::string::npos ||
         e.message.find("Connection refused") != std::string::npos ||
         e.message.find("Could not resolve") != std::string::npos;
}

ErrorKind http_error_kind(int status) {
  switch (status) {
    case 404:
      return ErrorKind::NotFound;
    case 409:
    case 412:
      return ErrorKind::Conflict;
    case 401:
    case 403:
      return ErrorKind::Auth;
    default:
      return ErrorKind::Http;
  }
}

}  // namespace trainyard::azure
