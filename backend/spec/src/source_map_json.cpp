#include "source_map_json.hpp"

#include <cctype>

#include <fmt/format.h>

#include "core/json_error.hpp"
#include "core/text.hpp"

namespace trainyard::spec {

namespace {}  // namespace

Result<JsonSource> load_json_source(std::string file, std::string_view text) {
  JsonSource src;
  try {
    src.root = json::parse(text);
  } catch (const json::parse_error& e) {
    // e.byte is 1-based and points at the character that broke the grammar.
    SourcePos pos = pos_at_offset(text, e.byte == 0 ? 0 : e.byte - 1);
    return spec_error(file, pos, "", "invalid JSON: " + json_syntax_reason(e.what()));
  } catch (const json::out_of_range& e) {  // a number too large for a double
    const std::size_t byte = json_overflow_byte(text, e.what());
    SourcePos pos = pos_at_offset(text, byte == 0 ? 0 : byte - 1);
    return spec_error(file, pos, "", "invalid JSON: " + json_syntax_reason(e.what()));
  }
  auto map = index_json(std::move(file), text);
  if (!map) return map.error();
  src.map = std::move(map).value();
  return src;
}

std::string json_type_name(const json& v) {
  switch (v.type()) {
    case json::value_t::object:
      return "an object";
    case json::value_t::array:
      return "an array";
    case json::value_t::string:
      return "a string";
    case json::value_t::boolean:
      return "a boolean";
    case json::value_t::null:
      return "null";
    case json::value_t::number_float:
      return "a number";
    default:
      return "an integer";
  }
}

JsonFields::JsonFields(const SourceMap& map, const json& obj, std::string pointer)
    : map_(map), obj_(obj), ptr_(std::move(pointer)) {}

void JsonFields::fail(std::string_view key, std::string_view what) const {
  throw SpecFailure{map_.error(key.empty() ? ptr_ : at(key), what)};
}

const json* JsonFields::get(std::string_view key) {
  auto it = obj_.find(key);
  if (it == obj_.end()) return nullptr;
  read_.emplace(key);
  return it->is_null() ? nullptr : &*it;
}

const json& JsonFields::typed(std::string_view key, const json& v, bool ok,
                              std::string_view expected) const {
  if (!ok) fail(key, fmt::format("expected {}, got {}", expected, json_type_name(v)));
  return v;
}

std::optional<std::string> JsonFields::str(std::string_view key) {
  const json* v = get(key);
  if (!v) return std::nullopt;
  return typed(key, *v, v->is_string(), "a string").get<std::string>();
}

std::string JsonFields::required_str(std::string_view key) {
  auto v = str(key);
  if (!v || v->empty()) fail(key, "required: a non-empty string");
  return *v;
}

std::optional<int> JsonFields::integer(std::string_view key, int lo, int hi) {
  const json* v = get(key);
  if (!v) return std::nullopt;
  typed(key, *v, v->is_number_integer(), "an integer");
  auto n = v->get<int64_t>();
  if (n < lo || n > hi) fail(key, fmt::format("expected an integer in {}..{}, got {}", lo, hi, n));
  return static_cast<int>(n);
}

std::optional<bool> JsonFields::boolean(std::string_view key) {
  const json* v = get(key);
  if (!v) return std::nullopt;
  return typed(key, *v, v->is_boolean(), "a boolean").get<bool>();
}

std::optional<Duration> JsonFields::duration(std::string_view key) {
  auto text = str(key);
  if (!text) return std::nullopt;
  auto d = parse_iso_duration(*text);
  if (!d) fail(key, fmt::format("expected an ISO 8601 duration such as PT1H30M, got '{}'", *text));
  return *d;
}

const json* JsonFields::object_field(std::string_view key) {
  const json* v = get(key);
  return v ? &typed(key, *v, v->is_object(), "an object") : nullptr;
}

const json* JsonFields::array_field(std::string_view key) {
  const json* v = get(key);
  return v ? &typed(key, *v, v->is_array(), "an array") : nullptr;
}

std::optional<std::string> JsonFields::enumeration(std::string_view key,
                                                   std::initializer_list<std::string_view> names) {
  auto text = str(key);
  if (!text) return std::nullopt;
  for (auto name : names) {
    if (iequals(*text, name)) return std::string(name);
  }
  fail(key, fmt::format("expected one of {}, got '{}'", fmt::join(names, ", "), *text));
}

std::vector<std::string> JsonFields::unread() const {
  std::vector<std::string> out;
  for (const auto& [k, v] : obj_.items()) {
    if (!read_.contains(k)) out.push_back(k);
  }
  return out;
}

void require_object(const SourceMap& map, const json& v, std::string_view pointer) {
  if (!v.is_object()) {
    throw SpecFailure{map.error(pointer, "expected an object, got " + json_type_name(v))};
  }
}

void check_batch_id(const SourceMap& map, std::string_view pointer, const std::string& id) {
  bool ok = !id.empty() && id.size() <= 64;
  for (char c : id)
    ok = ok && (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_');
  if (!ok) {
    throw SpecFailure{
        map.error(pointer, fmt::format("expected 1-64 letters, digits, '-' or '_', got '{}'", id))};
  }
}

RawJson raw(const json& v) {
  return RawJson{v.dump()};
}

std::vector<EnvSetting> read_env_settings(const SourceMap& map, const json& arr,
                                          std::string_view pointer) {
  std::vector<EnvSetting> out;
  for (std::size_t i = 0; i < arr.size(); ++i) {
    std::string p = pointer_join(pointer, i);
    require_object(map, arr[i], p);
    JsonFields f(map, arr[i], p);
    EnvSetting e{f.required_str("name"), f.str("value").value_or(""), false};
    for (const auto& k : f.unread()) f.fail(k, "unknown field of an environment setting");
    out.push_back(std::move(e));
  }
  return out;
}

}  // namespace trainyard::spec
