// The retry policy of the Batch client: exponential backoff with jitter, Retry-After honoured.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <random>
#include <string_view>

#include "azure/http.hpp"

namespace trainyard::azure {

/// How often and how long to retry.
struct RetryPolicy {
  int max_retries = 4;
  std::chrono::milliseconds base{1000};
  std::chrono::milliseconds cap{60000};
  double jitter = 0.5;  ///< the delay is scaled by a factor in [1 - jitter, 1]
};

/// 408, 429, 500, 502, 503, 504.
bool is_retryable_status(int status);

/// The delay before retry number `attempt` (1 = the first retry): `Retry-After` (seconds or an
/// HTTP date) or `retry-after-ms` when the response has one, else base * 2^(attempt-1) with
/// jitter; never above `cap`.
std::chrono::milliseconds retry_delay(const RetryPolicy& policy, int attempt,
                                      const HttpResponse* response, std::mt19937_64& rng);

/// Sleeps `delay` in short steps, returning at once when `http` is cancelled (so a cancel ends
/// a long Retry-After wait).
void pause_unless_cancelled(const HttpClient& http, std::chrono::milliseconds delay);

/// Transport failures that mean the request never reached the server (refused, unresolved), so
/// even a request that creates something may be sent again.
bool never_reached_server(const Error& e);

/// The error kind of an HTTP status: NotFound (404), Conflict (409, 412), Auth (401, 403), Http.
ErrorKind http_error_kind(int status);

/// The delay a `Retry-After` value asks for: delay-seconds, or an HTTP-date (IMF-fixdate, RFC 850
/// or asctime form) counted from `now`, 0 when already past; nullopt when it is neither.
std::optional<std::chrono::milliseconds> parse_retry_after(
    std::string_view value, std::chrono::system_clock::time_point now);

}  // namespace trainyard::azure
