// Time points, ISO 8601 text and durations as Batch writes them.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace trainyard {

/// A UTC instant with microsecond precision (Batch sends 100 ns; the last digit is 0 here).
using Timestamp = std::chrono::sys_time<std::chrono::microseconds>;
/// A span of time.
using Duration = std::chrono::microseconds;

/// Microseconds since the Unix epoch, for storage.
inline int64_t to_micros(Timestamp t) {
  return t.time_since_epoch().count();
}
/// Inverse of to_micros.
inline Timestamp from_micros(int64_t us) {
  return Timestamp(Duration(us));
}

/// Source of the current time; injected so tests are deterministic.
class Clock {
 public:
  virtual ~Clock() = default;
  /// The current instant.
  virtual Timestamp now() const = 0;
};

/// The wall clock.
class SystemClock final : public Clock {
 public:
  Timestamp now() const override;
};

/// A clock that only moves when told to (tests); one thread may move it while others read it.
class ManualClock final : public Clock {
 public:
  explicit ManualClock(Timestamp start) : now_(to_micros(start)) {}
  Timestamp now() const override { return from_micros(now_.load()); }
  /// Moves the clock forward.
  void advance(Duration d) { now_ += d.count(); }

 private:
  std::atomic<int64_t> now_;
};

/// `2016-11-22T18:55:25.2608590Z`: ISO 8601 UTC with 7 fraction digits, as Batch sends.
std::string format_iso8601(Timestamp t);
/// `18:55:25`: the time of day of `t` in UTC, to the second.
std::string format_clock_utc(Timestamp t);
/// Parses ISO 8601 UTC (`Z` or `+00:00`, any number of fraction digits).
Result<Timestamp> parse_iso8601(std::string_view text);

/// ISO 8601 duration as Batch writes it (`PT1H30M`, `P2DT3H`, `PT0.5S`).
std::string format_iso_duration(Duration d);
/// Parses an ISO 8601 duration (`PT15M`, `P1DT2H`, `PT1.5S`).
Result<Duration> parse_iso_duration(std::string_view text);
/// Parses a duration a person types: `90s`, `15m`, `2h30m`, `1d`, `1.5h`, or ISO 8601; bare numbers
/// are seconds.
Result<Duration> parse_human_duration(std::string_view text);
/// Short age for tables: `5s`, `3m`, `2h`, `4d`.
std::string format_age(Duration d);
/// How long something ran, for tables: `57s`, `1m57s`, `1h05m`, `2d03h` (two units from an hour
/// on; a negative duration reads `0s`).
std::string format_run_time(Duration d);

}  // namespace trainyard
