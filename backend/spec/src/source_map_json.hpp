// Private to trainyard_spec: JSON documents with positions, and a field reader that turns type
// and range problems into positioned one-line errors. Parsers throw SpecFailure internally and
// catch it at their public entry point, which returns it as a Result.
#pragma once

#include <initializer_list>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/time.hpp"
#include "spec/source_map.hpp"
#include "spec/spec_model.hpp"

namespace trainyard::spec {

// Ordered so that unread fields are reported in the order the user wrote them.
using json = nlohmann::ordered_json;

/// Internal control flow only: never leaves the library.
struct SpecFailure {
  Error error;
};

/// A parsed JSON file with the position of every value.
struct JsonSource {
  json root;
  SourceMap map;
};

/// Parses strict JSON; syntax errors and duplicate keys come back positioned.
Result<JsonSource> load_json_source(std::string file, std::string_view text);

/// `a string`, `an integer`, … for messages.
std::string json_type_name(const json& v);

/// Reads the fields of one JSON object, remembering which were read so that the rest can be
/// reported as unmapped or kept verbatim.
class JsonFields {
 public:
  JsonFields(const SourceMap& map, const json& obj, std::string pointer);

  const std::string& pointer() const { return ptr_; }
  std::string at(std::string_view key) const { return pointer_join(ptr_, key); }
  const SourceMap& map() const { return map_; }
  const json& object() const { return obj_; }

  /// The field's value, marked as read; nullptr when absent (JSON null counts as absent).
  const json* get(std::string_view key);
  /// Marks a field as read without using it.
  void skip(std::string_view key) { (void)get(key); }
  std::optional<std::string> str(std::string_view key);
  std::string required_str(std::string_view key);
  std::optional<int> integer(std::string_view key, int lo, int hi);
  std::optional<bool> boolean(std::string_view key);
  std::optional<Duration> duration(std::string_view key);
  /// A field of an object type; nullptr when absent.
  const json* object_field(std::string_view key);
  /// A field of an array type; nullptr when absent.
  const json* array_field(std::string_view key);
  /// Case-insensitive enum; returns the spelling in `names` (the wire name).
  std::optional<std::string> enumeration(std::string_view key,
                                         std::initializer_list<std::string_view> names);
  /// Fields not read yet, in document order.
  std::vector<std::string> unread() const;

  [[noreturn]] void fail(std::string_view key, std::string_view what) const;

 private:
  const json& typed(std::string_view key, const json& v, bool ok, std::string_view expected) const;

  const SourceMap& map_;
  const json& obj_;
  std::string ptr_;
  std::set<std::string, std::less<>> read_;
};

/// Throws a positioned error unless `v` is an object.
void require_object(const SourceMap& map, const json& v, std::string_view pointer);
/// Throws unless `id` is 1..64 of letters, digits, `-`, `_`.
void check_batch_id(const SourceMap& map, std::string_view pointer, const std::string& id);
/// Compact text of a JSON value.
RawJson raw(const json& v);
/// `environmentSettings`-shaped array → EnvSetting list (name required, value a string).
std::vector<EnvSetting> read_env_settings(const SourceMap& map, const json& arr,
                                          std::string_view pointer);

}  // namespace trainyard::spec
