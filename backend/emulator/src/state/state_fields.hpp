// Reading the `--state` snapshot field by field: a field of the wrong type, a float or a number
// out of range where a whole number goes (a hand-edited file) is an error naming its place,
// never a silent conversion or undefined behaviour.
#pragma once

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace trainyard::emu {

/// A field the snapshot cannot hold; `what()` starts with its place (`jobs[0].tasks[2].exec.end`).
struct StateFieldError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// One JSON object of the snapshot and where it is in the file.
class Fields {
 public:
  Fields(const nlohmann::json& object, std::string where) : j_(object), where_(std::move(where)) {}

  /// `where.key` (or `key` at the top).
  std::string place(std::string_view key) const {
    return where_.empty() ? std::string(key) : fmt::format("{}.{}", where_, key);
  }
  /// Whether the field is there (one added after state files were first written).
  bool has(const char* key) const { return j_.is_object() && j_.contains(key); }
  /// The field as it is stored (free-form JSON: specs, settings).
  const nlohmann::json& raw(const char* key) const {
    if (!j_.is_object() || !j_.contains(key)) throw StateFieldError(place(key) + ": missing");
    return j_.at(key);
  }
  /// A string, bool, list or map field.
  template <class T>
  T get(const char* key) const {
    try {
      return raw(key).get<T>();
    } catch (const nlohmann::json::exception& e) {
      throw StateFieldError(fmt::format("{}: {}", place(key), e.what()));
    }
  }
  /// A whole number that T holds.
  template <class T>
  T whole(const char* key) const {
    const auto& v = raw(key);
    if (v.is_number_unsigned() && std::in_range<T>(v.get<uint64_t>()))
      return static_cast<T>(v.get<uint64_t>());
    if (v.is_number_integer() && !v.is_number_unsigned() && std::in_range<T>(v.get<int64_t>()))
      return static_cast<T>(v.get<int64_t>());
    throw StateFieldError(fmt::format("{}: {} is not a whole number from {} to {}", place(key),
                                      v.dump().substr(0, 40), std::numeric_limits<T>::min(),
                                      std::numeric_limits<T>::max()));
  }
  /// One of an enumeration's values, 0 to `last`.
  template <class E>
  E choice(const char* key, E last) const {
    const int v = whole<int>(key);
    if (v < 0 || v > static_cast<int>(last))
      throw StateFieldError(
          fmt::format("{}: {} is not a state from 0 to {}", place(key), v, static_cast<int>(last)));
    return static_cast<E>(v);
  }
  /// A nested object.
  Fields object(const char* key) const { return Fields(raw(key), place(key)); }
  /// The objects of an array field, each with its place (`tasks[3]`).
  template <class Fn>
  void each(const char* key, Fn&& fn) const {
    const auto& list = raw(key);
    if (!list.is_array()) throw StateFieldError(place(key) + ": not a list");
    for (size_t i = 0; i < list.size(); ++i)
      fn(Fields(list[i], fmt::format("{}[{}]", place(key), i)));
  }

 private:
  const nlohmann::json& j_;
  std::string where_;
};

}  // namespace trainyard::emu
