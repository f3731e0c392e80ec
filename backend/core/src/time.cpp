#include "core/time.hpp"

#include <cctype>
#include <ctime>

#include <fmt/format.h>

namespace trainyard {
namespace {

using std::chrono::days;
using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::minutes;
using std::chrono::seconds;

// Reads an unsigned integer of exactly `width` digits at text[pos].
std::optional<int> read_digits(std::string_view text, size_t pos, size_t width) {
  if (pos + width > text.size()) return std::nullopt;
  int v = 0;
  for (size_t i = pos; i < pos + width; ++i) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    v = v * 10 + (text[i] - '0');
  }
  return v;
}

Error bad_time(std::string_view text) {
  return make_error(ErrorKind::Parse, fmt::format("not an ISO 8601 UTC time: '{}'", text));
}

// Parses `12.5` style numbers exactly as microsecond-scaled integers; returns chars consumed.
size_t read_number(std::string_view text, size_t pos, int64_t& out_micro_units) {
  size_t i = pos;
  int64_t whole = 0, frac = 0, scale = 1000000;
  while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
    if (whole > 1'000'000'000'000) return 0;
    whole = whole * 10 + (text[i++] - '0');
  }
  if (i < text.size() && text[i] == '.') {
    for (++i; i < text.size() && std::isdigit(static_cast<unsigned char>(text[i])); ++i) {
      scale /= 10;
      frac += (text[i] - '0') * scale;
    }
  }
  if (i == pos || (i == pos + 1 && text[pos] == '.')) return 0;
  out_micro_units = whole * 1000000 + frac;
  return i - pos;
}

// Multiplies a microsecond-scaled count by a unit in seconds.
int64_t scaled(int64_t micro_units, int64_t unit_seconds) {
  return micro_units * unit_seconds;
}

}  // namespace

Timestamp SystemClock::now() const {
  return std::chrono::time_point_cast<microseconds>(std::chrono::system_clock::now());
}

std::string format_iso8601(Timestamp t) {
  auto day = std::chrono::floor<days>(t);
  std::chrono::year_month_day ymd{day};
  std::chrono::hh_mm_ss hms{t - day};
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:06}0Z", static_cast<int>(ymd.year()),
                     static_cast<unsigned>(ymd.month()), static_cast<unsigned>(ymd.day()),
                     hms.hours().count(), hms.minutes().count(), hms.seconds().count(),
                     hms.subseconds().count());
}

std::string format_clock_utc(Timestamp t) {
  return format_iso8601(t).substr(11, 8);
}

Result<Timestamp> parse_iso8601(std::string_view text) {
  auto y = read_digits(text, 0, 4), mo = read_digits(text, 5, 2), d = read_digits(text, 8, 2);
  auto h = read_digits(text, 11, 2), mi = read_digits(text, 14, 2), s = read_digits(text, 17, 2);
  if (!y || !mo || !d || !h || !mi || !s || text[4] != '-' || text[7] != '-' ||
      (text[10] != 'T' && text[10] != 't' && text[10] != ' ') || text[13] != ':' || text[16] != ':')
    return bad_time(text);
  size_t pos = 19;
  int64_t frac_us = 0;
  if (pos < text.size() && text[pos] == '.') {
    int64_t scale = 100000;
    for (++pos; pos < text.size() && std::isdigit(static_cast<unsigned char>(text[pos])); ++pos) {
      frac_us += (text[pos] - '0') * scale;
      scale /= 10;
    }
  }
  std::string_view zone = text.substr(pos);
  if (zone != "Z" && zone != "z" && zone != "+00:00" && zone != "") return bad_time(text);
  std::chrono::year_month_day ymd{std::chrono::year(*y), std::chrono::month(*mo),
                                  std::chrono::day(*d)};
  if (!ymd.ok() || *h > 23 || *mi > 59 || *s > 60) return bad_time(text);
  Timestamp t = std::chrono::sys_days(ymd) + hours(*h) + minutes(*mi) + seconds(*s);
  return t + microseconds(frac_us);
}

std::string format_iso_duration(Duration d) {
  auto us = d.count();
  if (us < 0) us = 0;
  int64_t total_s = us / 1000000, frac = us % 1000000;
  int64_t dd = total_s / 86400, hh = (total_s / 3600) % 24, mm = (total_s / 60) % 60,
          ss = total_s % 60;
  std::string out = "P";
  if (dd) out += fmt::format("{}D", dd);
  out += "T";
  if (hh) out += fmt::format("{}H", hh);
  if (mm) out += fmt::format("{}M", mm);
  if (ss || frac || (!dd && !hh && !mm)) {
    if (frac) {
      auto digits = fmt::format("{:06}", frac);
      while (digits.back() == '0') digits.pop_back();
      out += fmt::format("{}.{}S", ss, digits);
    } else {
      out += fmt::format("{}S", ss);
    }
  }
  if (out.back() == 'T') out.pop_back();
  return out;
}

Result<Duration> parse_iso_duration(std::string_view text) {
  auto bad = [&] {
    return make_error(ErrorKind::Parse, fmt::format("not an ISO 8601 duration: '{}'", text));
  };
  if (text.size() < 3 || (text[0] != 'P' && text[0] != 'p')) return bad();
  bool in_time = false;
  int64_t total = 0;
  for (size_t pos = 1; pos < text.size();) {
    char c = static_cast<char>(std::toupper(static_cast<unsigned char>(text[pos])));
    if (c == 'T') {
      in_time = true;
      ++pos;
      continue;
    }
    int64_t v = 0;
    size_t n = read_number(text, pos, v);
    if (n == 0 || pos + n >= text.size()) return bad();
    pos += n;
    char unit = static_cast<char>(std::toupper(static_cast<unsigned char>(text[pos++])));
    if (!in_time && unit == 'D')
      total += scaled(v, 86400);
    else if (!in_time && unit == 'W')
      total += scaled(v, 7 * 86400);
    else if (in_time && unit == 'H')
      total += scaled(v, 3600);
    else if (in_time && unit == 'M')
      total += scaled(v, 60);
    else if (in_time && unit == 'S')
      total += v;
    else
      return bad();
  }
  return Duration(total);
}

Result<Duration> parse_human_duration(std::string_view text) {
  if (!text.empty() && (text[0] == 'P' || text[0] == 'p')) return parse_iso_duration(text);
  auto bad = [&] {
    return make_error(ErrorKind::Usage,
                      fmt::format("not a duration: '{}' (try 90s, 15m, 2h30m, 1d or PT15M)", text));
  };
  if (text.empty()) return bad();
  int64_t total = 0;
  for (size_t pos = 0; pos < text.size();) {
    int64_t v = 0;
    size_t n = read_number(text, pos, v);
    if (n == 0) return bad();
    pos += n;
    char unit = pos < text.size()
                    ? static_cast<char>(std::tolower(static_cast<unsigned char>(text[pos++])))
                    : 's';
    if (unit == 'd')
      total += scaled(v, 86400);
    else if (unit == 'h')
      total += scaled(v, 3600);
    else if (unit == 'm')
      total += scaled(v, 60);
    else if (unit == 's')
      total += v;
    else
      return bad();
  }
  return Duration(total);
}

std::string format_age(Duration d) {
  auto s = std::chrono::duration_cast<seconds>(d).count();
  if (s < 0) s = 0;
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m", s / 60);
  if (s < 86400) return fmt::format("{}h", s / 3600);
  return fmt::format("{}d", s / 86400);
}

std::string format_run_time(Duration d) {
  auto s = std::chrono::duration_cast<seconds>(d).count();
  if (s < 0) s = 0;
  if (s < 60) return fmt::format("{}s", s);
  if (s < 3600) return fmt::format("{}m{:02}s", s / 60, s % 60);
  if (s < 86400) return fmt::format("{}h{:02}m", s / 3600, s % 3600 / 60);
  return fmt::format("{}d{:02}h", s / 86400, s % 86400 / 3600);
}

}  // namespace trainyard
