// HTTP dates (RFC 7231 §7.1.1.1) for ocp-date / Date: IMF-fixdate out, all three forms in.
#include <array>
#include <chrono>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "emulator/shared_key_check.hpp"

namespace trainyard::emu {
namespace {

using namespace std::chrono;

constexpr std::array<std::string_view, 7> kDays = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"};
constexpr std::array<std::string_view, 7> kLongDays = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                                       "Thursday", "Friday", "Saturday"};
constexpr std::array<std::string_view, 12> kMonths = {"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                      "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};

// Index of `s` in `names`, case-sensitively as RFC 7231 requires.
template <size_t N>
std::optional<unsigned> index_of(const std::array<std::string_view, N>& names, std::string_view s) {
  for (size_t i = 0; i < N; ++i) {
    if (names[i] == s) return static_cast<unsigned>(i);
  }
  return std::nullopt;
}

// A number of `min_width`..`max_width` digits, nothing else.
std::optional<int> number(std::string_view s, size_t min_width, size_t max_width) {
  if (s.size() < min_width || s.size() > max_width) return std::nullopt;
  int v = 0;
  for (char c : s) {
    if (c < '0' || c > '9') return std::nullopt;
    v = v * 10 + (c - '0');
  }
  return v;
}

// Space-separated tokens; runs of spaces collapse (asctime pads days: "Nov  6").
std::vector<std::string_view> tokens(std::string_view s) {
  std::vector<std::string_view> out;
  while (!s.empty()) {
    auto start = s.find_first_not_of(' ');
    if (start == std::string_view::npos) break;
    s.remove_prefix(start);
    auto end = s.find(' ');
    out.push_back(s.substr(0, end));
    s = end == std::string_view::npos ? std::string_view{} : s.substr(end);
  }
  return out;
}

struct DateFields {
  std::optional<unsigned> weekday;  // 0 = Sunday
  std::string_view day, month, year, time;
};

// Sorts the tokens of the three HTTP date forms into fields; nullopt for anything else.
std::optional<DateFields> fields(std::string_view text) {
  auto t = tokens(text);
  auto comma_day = [](std::string_view s) -> std::string_view {
    return s.ends_with(',') ? s.substr(0, s.size() - 1) : std::string_view{};
  };
  if (t.size() == 6 && t[5] == "GMT") {  // Sun, 06 Nov 1994 08:49:37 GMT
    if (t[3].size() != 4) return std::nullopt;
    return DateFields{index_of(kDays, comma_day(t[0])), t[1], t[2], t[3], t[4]};
  }
  if (t.size() == 4 && t[3] == "GMT") {  // Sunday, 06-Nov-94 08:49:37 GMT
    auto d = t[1];
    if (d.size() != 9 || d[2] != '-' || d[6] != '-') return std::nullopt;
    return DateFields{index_of(kLongDays, comma_day(t[0])), d.substr(0, 2), d.substr(3, 3),
                      d.substr(7, 2), t[2]};
  }
  if (t.size() == 5) {  // Sun Nov  6 08:49:37 1994
    if (t[4].size() != 4) return std::nullopt;
    return DateFields{index_of(kDays, t[0]), t[2], t[1], t[4], t[3]};
  }
  return std::nullopt;
}

// HH:MM:SS; second 60 (a leap second) is allowed as HTTP allows it.
std::optional<seconds> time_of_day(std::string_view s) {
  if (s.size() != 8 || s[2] != ':' || s[5] != ':') return std::nullopt;
  auto h = number(s.substr(0, 2), 2, 2), m = number(s.substr(3, 2), 2, 2),
       sec = number(s.substr(6, 2), 2, 2);
  if (!h || !m || !sec || *h > 23 || *m > 59 || *sec > 60) return std::nullopt;
  return hours(*h) + minutes(*m) + seconds(*sec);
}

Error not_a_date(std::string_view text) {
  return make_error(ErrorKind::Parse, fmt::format("not an RFC 1123 date: '{}'", text));
}

}  // namespace

std::string format_rfc1123(Timestamp t) {
  auto secs = floor<seconds>(t);
  auto day = floor<days>(secs);
  year_month_day ymd{day};
  hh_mm_ss hms{secs - day};
  return fmt::format("{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT", kDays[weekday{day}.c_encoding()],
                     static_cast<unsigned>(ymd.day()),
                     kMonths[static_cast<unsigned>(ymd.month()) - 1], static_cast<int>(ymd.year()),
                     hms.hours().count(), hms.minutes().count(), hms.seconds().count());
}

Result<Timestamp> parse_rfc1123(std::string_view text) {
  auto f = fields(text);
  if (!f || !f->weekday) return not_a_date(text);
  auto d = number(f->day, 1, 2);
  auto mon = index_of(kMonths, f->month);
  auto y = number(f->year, 2, 4);
  auto tod = time_of_day(f->time);
  if (!d || !mon || !y || !tod) return not_a_date(text);
  // RFC 850 two-digit years: 00-69 are 20xx, 70-99 are 19xx.
  int year_value = f->year.size() == 2 ? (*y < 70 ? 2000 + *y : 1900 + *y) : *y;
  year_month_day ymd{year{year_value}, month{*mon + 1}, day{static_cast<unsigned>(*d)}};
  if (!ymd.ok()) return not_a_date(text);
  sys_days date{ymd};
  // The service (.NET) rejects a weekday that does not match the date; so do we.
  if (weekday{date}.c_encoding() != *f->weekday) return not_a_date(text);
  return Timestamp{date} + *tod;
}

}  // namespace trainyard::emu
