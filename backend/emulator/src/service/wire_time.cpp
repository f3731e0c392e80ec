// DateTime and TimeSpan text as the Batch service reads and writes them.
#include "wire_time.hpp"

#include <chrono>
#include <cstdint>
#include <iterator>
#include <utility>

#include <fmt/format.h>

namespace trainyard::emu {
namespace {

constexpr int64_t kTicksPerSecond = 10'000'000;  // TimeSpan counts 100 ns ticks
constexpr int64_t kTicksPerMicro = 10;
constexpr int64_t kMaxTimeSpanMicros = INT64_MAX / kTicksPerMicro;

// A cursor over wire text: every read either consumes what it matched or fails.
class Scanner {
 public:
  explicit Scanner(std::string_view text) : text_(text) {}
  bool done() const { return pos_ == text_.size(); }
  char peek() const { return done() ? '\0' : text_[pos_]; }
  bool take(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  bool take(std::string_view s) {
    if (text_.substr(pos_, s.size()) != s) return false;
    pos_ += s.size();
    return true;
  }
  // Exactly `width` digits.
  std::optional<int> fixed(size_t width) {
    if (pos_ + width > text_.size()) return std::nullopt;
    int v = 0;
    for (size_t i = 0; i < width; ++i) {
      char c = text_[pos_ + i];
      if (c < '0' || c > '9') return std::nullopt;
      v = v * 10 + (c - '0');
    }
    pos_ += width;
    return v;
  }
  // One or more digits, no larger than `limit`; nullopt when none or past the limit.
  std::optional<int64_t> number(int64_t limit) {
    size_t start = pos_;
    int64_t v = 0;
    while (!done() && peek() >= '0' && peek() <= '9') {
      v = v * 10 + (text_[pos_++] - '0');
      if (v > limit) return std::nullopt;
    }
    if (pos_ == start) return std::nullopt;
    return v;
  }
  // `.` and 1 to 7 digits, as 100 ns ticks; 0 when there is no `.`.
  std::optional<int64_t> fraction_ticks() {
    if (!take('.')) return 0;
    int64_t ticks = 0, scale = kTicksPerSecond;
    size_t digits = 0;
    while (!done() && peek() >= '0' && peek() <= '9') {
      if (++digits > 7) return std::nullopt;
      scale /= 10;
      ticks += (text_[pos_++] - '0') * scale;
    }
    if (digits == 0) return std::nullopt;
    return ticks;
  }

 private:
  std::string_view text_;
  size_t pos_ = 0;
};

std::optional<std::chrono::sys_days> read_date(Scanner& s) {
  auto y = s.fixed(4);
  if (!y || !s.take('-')) return std::nullopt;
  auto m = s.fixed(2);
  if (!m || !s.take('-')) return std::nullopt;
  auto d = s.fixed(2);
  if (!d) return std::nullopt;
  std::chrono::year_month_day ymd{std::chrono::year(*y), std::chrono::month(unsigned(*m)),
                                  std::chrono::day(unsigned(*d))};
  if (!ymd.ok()) return std::nullopt;
  return std::chrono::sys_days(ymd);
}

// `hh:mm[:ss[.f]]` as ticks since midnight.
std::optional<int64_t> read_clock(Scanner& s) {
  auto h = s.fixed(2);
  if (!h || *h > 23 || !s.take(':')) return std::nullopt;
  auto m = s.fixed(2);
  if (!m || *m > 59) return std::nullopt;
  int64_t seconds = *h * 3600 + *m * 60;
  int64_t frac = 0;
  if (s.take(':')) {
    auto sec = s.fixed(2);
    auto f = sec ? s.fraction_ticks() : std::nullopt;
    if (!sec || *sec > 59 || !f) return std::nullopt;
    seconds += *sec;
    frac = *f;
  }
  return seconds * kTicksPerSecond + frac;
}

// The date part of a duration: `nD`, nothing else.
std::optional<int64_t> read_days(Scanner& s) {
  if (s.peek() == 'T' || s.done()) return 0;
  auto days = s.number(10'675'199);
  if (!days || !s.take('D')) return std::nullopt;
  return *days;
}

// The time part after `T`: `nH`, `nM`, `n[.f]S`, in order, at least one; ticks, nullopt past
// what an int64 of ticks holds.
std::optional<int64_t> read_time_ticks(Scanner& s) {
  constexpr int64_t kMaxUnits = 1'000'000'000'000;
  static constexpr std::pair<char, int64_t> kUnits[] = {{'H', 3600}, {'M', 60}, {'S', 1}};
  int64_t ticks = 0;
  size_t next_unit = 0, parts = 0;
  while (!s.done()) {
    auto n = s.number(kMaxUnits);
    const bool has_fraction = s.peek() == '.';
    auto frac = s.fraction_ticks();
    if (!n || !frac) return std::nullopt;
    while (next_unit < std::size(kUnits) && !s.take(kUnits[next_unit].first)) ++next_unit;
    if (next_unit == std::size(kUnits)) return std::nullopt;
    if (has_fraction && kUnits[next_unit].first != 'S') return std::nullopt;
    int64_t part = 0;
    if (__builtin_mul_overflow(*n, kUnits[next_unit].second * kTicksPerSecond, &part) ||
        __builtin_add_overflow(ticks, part, &ticks) || __builtin_add_overflow(ticks, *frac, &ticks))
      return std::nullopt;
    ++next_unit;
    ++parts;
  }
  if (parts == 0) return std::nullopt;
  return ticks;
}

}  // namespace

std::optional<Micros> read_wire_time(std::string_view text) {
  Scanner s(text);
  auto day = read_date(s);
  if (!day || !s.take('T')) return std::nullopt;
  auto clock = read_clock(s);
  if (!clock) return std::nullopt;
  if (!s.take('Z')) s.take("+00:00");
  if (!s.done()) return std::nullopt;
  auto since_epoch = std::chrono::duration_cast<std::chrono::seconds>(day->time_since_epoch());
  return since_epoch.count() * 1'000'000 + *clock / kTicksPerMicro;
}

std::optional<Micros> read_wire_duration(std::string_view text) {
  Scanner s(text);
  if (!s.take('P')) return std::nullopt;
  auto days = read_days(s);
  if (!days) return std::nullopt;
  int64_t time = 0;
  if (s.take('T')) {
    auto t = read_time_ticks(s);
    if (!t) return std::nullopt;
    time = *t;
  } else if (text.size() == 1 || !s.done()) {
    return std::nullopt;
  }
  // Days are capped so this product fits; the sum is checked against TimeSpan.MaxValue.
  int64_t total = 0;
  if (__builtin_add_overflow(*days * 86400 * kTicksPerSecond, time, &total)) return std::nullopt;
  return total / kTicksPerMicro;
}

std::string write_wire_duration(Micros us) {
  // TimeSpan.MaxValue has no exact microsecond count: its truncation stands for it.
  if (us >= kMaxTimeSpanMicros) return "P10675199DT2H48M5.4775807S";
  if (us < 0) us = 0;
  const int64_t days = us / 86'400'000'000, rest = us % 86'400'000'000;
  const int64_t hours = rest / 3'600'000'000, minutes = rest / 60'000'000 % 60;
  const int64_t seconds = rest / 1'000'000 % 60, micros = rest % 1'000'000;
  std::string out = "P";
  if (days) out += fmt::format("{}D", days);
  if (rest == 0 && days) return out;
  out += "T";
  if (hours) out += fmt::format("{}H", hours);
  if (minutes) out += fmt::format("{}M", minutes);
  if (seconds || micros || us == 0) {
    std::string frac = micros ? fmt::format(".{:06}", micros) : "";
    while (!frac.empty() && frac.back() == '0') frac.pop_back();
    out += fmt::format("{}{}S", seconds, frac);
  }
  return out;
}

}  // namespace trainyard::emu
