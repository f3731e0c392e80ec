// JsonFields: typed member reads that name the JSON pointer of whatever is wrong.
#include <algorithm>
#include <cctype>
#include <charconv>
#include <climits>
#include <cstdint>

#include <fmt/format.h>

#include "azure/parse.hpp"
#include "core/text.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {
namespace {

using nlohmann::json;

// Batch's spelling of "no limit" for durations (azure-batch-api.md §2).
constexpr std::string_view kUnlimited = "P10675199DT2H48M5.4775807S";
// kUnlimited in microseconds: a duration at least this long means "no limit".
constexpr std::chrono::microseconds kUnlimitedMicros{922337203685477580};
// Beyond this many seconds the core parser's int64 microseconds overflow.
constexpr double kOverflowSeconds = 9.0e12;
// Longest time or duration text worth parsing; longer is garbage and would bloat messages.
constexpr std::size_t kMaxTimeText = 64;

// "an object", "a string": the article matters in messages people read.
std::string a_type(const json& j) {
  std::string name = j.type_name();
  if (j.is_null()) return name;
  bool vowel = name[0] == 'a' || name[0] == 'o';
  return (vowel ? "an " : "a ") + name;
}

// Seconds per ISO 8601 duration unit, for the overflow guard only; letters the core parser
// rejects count as 1 because it rejects them before multiplying.
double unit_seconds(char unit) {
  switch (std::toupper(static_cast<unsigned char>(unit))) {
    case 'W':
      return 604800.0;
    case 'D':
      return 86400.0;
    case 'H':
      return 3600.0;
    case 'M':
      return 60.0;
    default:
      return 1.0;
  }
}

// Rough length of a duration in seconds; the core parser works in int64 microseconds and would
// overflow on `P99999999999W`, so such texts must not reach it.
double rough_seconds(std::string_view text) {
  double total = 0, number = 0;
  bool in_fraction = false;
  for (char c : text) {
    if (std::isdigit(static_cast<unsigned char>(c))) {
      if (!in_fraction) number = number * 10 + (c - '0');
    } else if (c == '.') {
      in_fraction = true;
    } else {
      total += (number + 1) * unit_seconds(c);
      number = 0;
      in_fraction = false;
    }
  }
  return total;
}

// The JSON pointer escapes of RFC 6901.
std::string escape_pointer_token(std::string_view key) {
  std::string out;
  for (char c : key) {
    if (c == '~')
      out += "~0";
    else if (c == '/')
      out += "~1";
    else
      out += c;
  }
  return out;
}

}  // namespace

namespace detail {

Error unreadable_json(const std::exception& e) {
  return make_error(ErrorKind::Parse, fmt::format("unreadable JSON: {}", e.what()));
}

std::string string_field(const json& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string a_type(json::value_t t) {
  return azure::a_type(json(t));  // the json overload above
}

Result<Timestamp> time_value(std::string_view text) {
  if (text.size() > kMaxTimeText)
    return make_error(ErrorKind::Parse, "not an ISO 8601 UTC time (too long)");
  return parse_iso8601(text);
}

Result<std::optional<Duration>> duration_value(std::string_view text) {
  if (iequals(text, kUnlimited)) return std::optional<Duration>{};
  if (text.size() > kMaxTimeText)
    return make_error(ErrorKind::Parse, "not an ISO 8601 duration (too long)");
  // Far longer than "unlimited" is unlimited; the parser would overflow.
  if (rough_seconds(text) >= kOverflowSeconds) return std::optional<Duration>{};
  auto d = parse_iso_duration(text);
  if (!d) return d.error();
  if (*d >= kUnlimitedMicros) return std::optional<Duration>{};
  return std::optional<Duration>(*d);
}

Result<int> int_value(std::optional<std::uint64_t> unsigned_value,
                      std::optional<std::int64_t> signed_value) {
  if (unsigned_value) {
    if (*unsigned_value <= static_cast<std::uint64_t>(INT_MAX))
      return static_cast<int>(*unsigned_value);
    return make_error(ErrorKind::Parse, fmt::format("{} is out of range", *unsigned_value));
  }
  const std::int64_t i = signed_value.value_or(0);
  if (i >= INT_MIN && i <= INT_MAX) return static_cast<int>(i);
  return make_error(ErrorKind::Parse, fmt::format("{} is out of range", i));
}

// Most task ids one dependsOn may expand to.
constexpr std::size_t kMaxDependencyIds = 100'000;

Result<void> append_id_range(int start, int end, std::vector<std::string>& ids) {
  if (end < start)
    return make_error(ErrorKind::Parse, fmt::format("end {} is before start {}", end, start));
  auto width = static_cast<std::size_t>(static_cast<std::int64_t>(end) - start + 1);
  if (width > kMaxDependencyIds - std::min(ids.size(), kMaxDependencyIds)) {
    return make_error(ErrorKind::Parse,
                      fmt::format("dependsOn expands to more than {} task ids", kMaxDependencyIds));
  }
  for (std::int64_t id = start; id <= end; ++id) ids.push_back(std::to_string(id));
  return {};
}

std::optional<std::uint64_t> size_value(std::string_view text) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return n;
}

}  // namespace detail

JsonFields::JsonFields(std::string pointer, std::optional<Error>& sink)
    : ptr_(std::move(pointer)), sink_(&sink) {}

JsonFields::JsonFields(const json& j, std::string pointer, std::optional<Error>& sink)
    : ptr_(std::move(pointer)), sink_(&sink) {
  if (j.is_object())
    j_ = &j;
  else
    fail("", "expected an object, got " + a_type(j));
}

std::string JsonFields::pointer(std::string_view key) const {
  if (key.empty()) return ptr_;
  return ptr_ + "/" + escape_pointer_token(key);
}

void JsonFields::fail(std::string_view key, std::string_view what) const {
  fail_at(pointer(key), what);
}

void JsonFields::fail_at(std::string where, std::string_view what) const {
  if (sink_->has_value()) return;
  if (where.empty()) where = "(root)";
  *sink_ = make_error(ErrorKind::Parse, fmt::format("{}: {}", where, what));
}

const json* JsonFields::member(std::string_view key) const {
  if (!j_) return nullptr;
  auto it = j_->find(key);
  if (it == j_->end() || it->is_null()) return nullptr;
  return &*it;
}

const json* JsonFields::typed(std::string_view key, json::value_t type) const {
  const json* v = member(key);
  if (!v || v->type() == type) return v;
  fail(key, fmt::format("expected {}, got {}", detail::a_type(type), a_type(*v)));
  return nullptr;
}

const std::string* JsonFields::text(std::string_view key) const {
  const json* v = typed(key, json::value_t::string);
  return v ? v->get_ptr<const std::string*>() : nullptr;
}

JsonFields JsonFields::child(std::string_view key) const {
  if (const json* v = typed(key, json::value_t::object))
    return JsonFields(*v, pointer(key), *sink_);
  return JsonFields(pointer(key), *sink_);
}

JsonFields JsonFields::element(std::string_view key, std::size_t i) const {
  std::string where = pointer(key) + "/" + std::to_string(i);
  const json* list = member(key);
  if (list && list->is_array() && i < list->size()) return JsonFields((*list)[i], where, *sink_);
  return JsonFields(std::move(where), *sink_);
}

bool JsonFields::has(std::string_view key) const {
  return member(key) != nullptr;
}

const json* JsonFields::array(std::string_view key) const {
  return typed(key, json::value_t::array);
}

void JsonFields::get(std::string_view key, std::string& out) const {
  if (const std::string* s = text(key)) out = *s;
}

void JsonFields::require(std::string_view key, std::string& out) const {
  if (!has(key)) return fail(key, "missing");
  get(key, out);
}

void JsonFields::require(std::string_view key, int& out) const {
  if (!has(key)) return fail(key, "missing");
  get(key, out);
}

void JsonFields::get(std::string_view key, bool& out) const {
  if (const json* v = typed(key, json::value_t::boolean)) out = v->get<bool>();
}

void JsonFields::get(std::string_view key, std::optional<int>& out) const {
  const json* v = member(key);
  if (!v) return;
  if (!v->is_number_integer())
    return fail(key, "expected an integer, got " + (v->is_number() ? v->dump() : a_type(*v)));
  auto i = v->is_number_unsigned() ? detail::int_value(v->get<std::uint64_t>(), std::nullopt)
                                   : detail::int_value(std::nullopt, v->get<std::int64_t>());
  if (i)
    out = *i;
  else
    fail(key, i.error().message);
}

void JsonFields::get(std::string_view key, int& out) const {
  std::optional<int> v;
  get(key, v);
  if (v) out = *v;
}

void JsonFields::get(std::string_view key, std::optional<Timestamp>& out) const {
  const std::string* s = text(key);
  if (!s) return;
  auto t = detail::time_value(*s);
  if (t)
    out = *t;
  else
    fail(key, t.error().message);
}

void JsonFields::get(std::string_view key, std::optional<Duration>& out) const {
  const std::string* s = text(key);
  if (!s) return;
  auto d = detail::duration_value(*s);
  if (d)
    out = *d;
  else
    fail(key, d.error().message);
}

void JsonFields::get(std::string_view key, std::vector<std::string>& out) const {
  const json* list = array(key);
  if (!list) return;
  std::vector<std::string> read;
  read.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    const json& v = (*list)[i];
    if (v.is_string())
      read.push_back(v.get<std::string>());
    else
      fail_at(pointer(key) + "/" + std::to_string(i), "expected a string, got " + a_type(v));
  }
  if (ok()) out = std::move(read);
}

void JsonFields::get(std::string_view key, std::vector<NameValue>& out) const {
  const json* list = array(key);
  if (!list) return;
  std::vector<NameValue> read;
  read.reserve(list->size());
  for (std::size_t i = 0; i < list->size(); ++i) {
    JsonFields item = element(key, i);
    NameValue nv;
    item.require("name", nv.name);
    item.get("value", nv.value);
    read.push_back(std::move(nv));
  }
  if (ok()) out = std::move(read);
}

}  // namespace trainyard::azure
