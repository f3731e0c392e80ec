#include "json_out.hpp"

#include <strings.h>

#include <ctime>

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
  for (char c : s) {
    auto u = static_cast<unsigned char>(c);
    if (c == '"' || c == '\\') {
      out.push_back('\\');
      out.push_back(c);
    } else if (u < 0x20) {
      out += fmt::format("\\u{:04x}", u);
    } else {
      out.push_back(c);
    }
  }
  out.push_back('"');
}

std::string format_time(Micros t) {
  std::time_t secs = static_cast<std::time_t>(t / 1000000);
  auto frac = t % 1000000;
  if (frac < 0) {
    frac += 1000000;
    --secs;
  }
  std::tm tm{};
  ::gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}.{:07}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, frac * 10);
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
  string(format_time(t));
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
