#include "json_out.hpp"

#include <strings.h>

#include <chrono>

#include <fmt/format.h>

namespace trainyard::emu {

Select Select::parse(std::string_view text) {
  Select s;
  size_t pos = 0;
  while (pos <= text.size()) {
    size_t comma = text.find(',', pos);
    if (comma == std::string_view::npos) comma = text.size();
    auto part = text.substr(pos, comma - pos);
    while (!part.empty() && part.front() == ' ') part.remove_prefix(1);
    while (!part.empty() && part.back() == ' ') part.remove_suffix(1);
    if (!part.empty()) s.names_.emplace_back(part);
    pos = comma + 1;
  }
  return s;
}

bool Select::has(std::string_view name) const {
  if (names_.empty()) return true;
  for (const auto& n : names_) {
    if (n.size() == name.size() && ::strncasecmp(n.data(), name.data(), n.size()) == 0) return true;
  }
  return false;
}

void append_json_string(std::string& out, std::string_view s) {
  out.push_back('"');
  // Runs of characters that need no escape are copied whole: most strings have no escape.
  size_t run = 0;
  for (size_t i = 0; i < s.size(); ++i) {
    auto u = static_cast<unsigned char>(s[i]);
    if (u >= 0x20 && u != '"' && u != '\\') continue;
    out.append(s.data() + run, i - run);
    if (u < 0x20) {
      fmt::format_to(std::back_inserter(out), "\\u{:04x}", u);
    } else {
      out.push_back('\\');
      out.push_back(s[i]);
    }
    run = i + 1;
  }
  out.append(s.data() + run, s.size() - run);
  out.push_back('"');
}

namespace {

// Writes `v` as `width` digits, zero-padded, ending just before `end`.
void put_digits(char* end, int64_t v, int width) {
  for (int i = 0; i < width; ++i, v /= 10) *--end = static_cast<char>('0' + v % 10);
}

}  // namespace

void append_time(std::string& out, Micros t) {
  // Whole days and the time of day, both taken downwards so times before 1970 read right.
  constexpr int64_t kDay = int64_t{86'400} * 1'000'000;
  const int64_t days = t / kDay - (t % kDay < 0 ? 1 : 0);
  const int64_t of_day = t - days * kDay;
  const std::chrono::year_month_day ymd{std::chrono::sys_days{std::chrono::days{days}}};
  const int64_t secs = of_day / 1'000'000;
  char text[] = "0000-00-00T00:00:00.0000000Z";
  put_digits(text + 4, static_cast<int>(ymd.year()), 4);
  put_digits(text + 7, static_cast<unsigned>(ymd.month()), 2);
  put_digits(text + 10, static_cast<unsigned>(ymd.day()), 2);
  put_digits(text + 13, secs / 3600, 2);
  put_digits(text + 16, secs / 60 % 60, 2);
  put_digits(text + 19, secs % 60, 2);
  put_digits(text + 27, of_day % 1'000'000 * 10, 7);
  out.append(text, sizeof text - 1);
}

std::string format_time(Micros t) {
  std::string out;
  append_time(out, t);
  return out;
}

void JsonOut::comma() {
  if (after_key_) {
    after_key_ = false;
    return;
  }
  if (!first_.empty()) {
    if (!first_.back()) out_.push_back(',');
    first_.back() = false;
  }
}

void JsonOut::begin_object() {
  comma();
  out_.push_back('{');
  first_.push_back(true);
}

void JsonOut::end_object() {
  out_.push_back('}');
  first_.pop_back();
}

void JsonOut::begin_array() {
  comma();
  out_.push_back('[');
  first_.push_back(true);
}

void JsonOut::end_array() {
  out_.push_back(']');
  first_.pop_back();
}

bool JsonOut::key(std::string_view name) {
  // $select applies to top-level properties only (depth 1 inside the entity object).
  if (select_ && first_.size() == 1 && !select_->has(name)) return false;
  comma();
  append_json_string(out_, name);
  out_.push_back(':');
  after_key_ = true;
  return true;
}

void JsonOut::string(std::string_view v) {
  comma();
  append_json_string(out_, v);
}

void JsonOut::number(int64_t v) {
  comma();
  fmt::format_to(std::back_inserter(out_), "{}", v);
}

void JsonOut::boolean(bool v) {
  comma();
  out_ += v ? "true" : "false";
}

void JsonOut::raw(std::string_view json_text) {
  comma();
  out_ += json_text;
}

void JsonOut::value(const nlohmann::json& v) {
  raw(v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
}

void JsonOut::time(Micros t) {
  comma();
  out_.push_back('"');
  append_time(out_, t);
  out_.push_back('"');
}

void JsonOut::str(std::string_view name, std::string_view v) {
  if (key(name)) string(v);
}

void JsonOut::num(std::string_view name, int64_t v) {
  if (key(name)) number(v);
}

void JsonOut::flag(std::string_view name, bool v) {
  if (key(name)) boolean(v);
}

void JsonOut::when(std::string_view name, Micros t) {
  if (t != 0 && key(name)) time(t);
}

void JsonOut::json(std::string_view name, const nlohmann::json& v) {
  if (!v.is_null() && key(name)) value(v);
}

}  // namespace trainyard::emu
