// A streaming JSON writer with `$select` applied at the property level: fast enough to serve
// a hundred thousand tasks a second.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "model.hpp"

namespace trainyard::emu {

/// The top-level properties a `$select` keeps; everything when none was given.
class Select {
 public:
  Select() = default;
  /// Parses a comma list; names are matched case-insensitively.
  static Select parse(std::string_view text);
  /// True when property `name` is to be written.
  bool has(std::string_view name) const;
  bool all() const { return names_.empty(); }

 private:
  std::vector<std::string> names_;
};

/// Appends JSON text to a string; `key` calls consult a Select.
class JsonOut {
 public:
  explicit JsonOut(std::string& out, const Select* select = nullptr) : out_(out), select_(select) {}

  void begin_object();
  void end_object();
  void begin_array();
  void end_array();
  /// Writes a property name; false (and nothing written) when `$select` drops it.
  bool key(std::string_view name);
  void string(std::string_view v);
  void number(int64_t v);
  void boolean(bool v);
  void raw(std::string_view json_text);
  void value(const nlohmann::json& v);
  /// Writes an ISO 8601 time with seven fraction digits, as the service does.
  void time(Micros t);

  /// Shorthands: a property with a value, skipped when not selected.
  void str(std::string_view name, std::string_view v);
  void num(std::string_view name, int64_t v);
  void flag(std::string_view name, bool v);
  void when(std::string_view name, Micros t);                 ///< skipped when t == 0
  void json(std::string_view name, const nlohmann::json& v);  ///< skipped when null

 private:
  void comma();
  std::string& out_;
  const Select* select_;
  std::vector<bool> first_;
  bool after_key_ = false;
};

/// The service's time format: `2016-11-22T18:55:25.2608598Z`.
std::string format_time(Micros t);
/// Appends format_time(t) to `out`.
void append_time(std::string& out, Micros t);
/// Appends `s` as a JSON string literal.
void append_json_string(std::string& out, std::string_view s);

}  // namespace trainyard::emu
