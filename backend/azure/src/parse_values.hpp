// Azure-private: the conversions of one JSON value that JsonFields and the streaming task-page
// parser share, so both read a field the same way and fail with the same words.
#pragma once

#include <cstdint>
#include <exception>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure::detail {

/// The error for a body nlohmann refused or a value it could not convert.
Error unreadable_json(const std::exception& e);

/// The string member `key` of object `o`; empty when it is missing or not a string.
std::string string_field(const nlohmann::json& o, const char* key);

/// "an object", "a string", "null": a JSON value's type as messages people read word it.
std::string a_type(nlohmann::json::value_t t);

/// A body over kMaxBodyBytes, or nested deeper than kMaxJsonDepth, is an error naming the byte
/// (checked before parsing: nothing recursive meets a hostile nesting).
Result<void> check_body_limits(std::string_view body);

/// An ISO 8601 UTC time; the error says what is wrong (too long, not a time).
Result<Timestamp> time_value(std::string_view text);
/// An ISO 8601 duration; nullopt for Batch's "unlimited" and anything as long or longer.
Result<std::optional<Duration>> duration_value(std::string_view text);
/// A JSON integer read as int: `unsigned_value` or `signed_value` is the number nlohmann parsed
/// (the other nullopt); out of int's range is an error naming the number.
Result<int> int_value(std::optional<std::uint64_t> unsigned_value,
                      std::optional<std::int64_t> signed_value);

/// A byte count written as decimal digits only (Content-Length, a range's total); nullopt for
/// anything else, a sign or spaces included.
std::optional<std::uint64_t> size_value(std::string_view text);

/// Appends the task ids start..end of one dependsOn taskIdRanges entry to `ids`; an end before the
/// start, or more than 100,000 ids in all (Batch allows ranges of any width, and a hostile or
/// broken `{"start":1,"end":2000000000}` must not take gigabytes), is an error.
Result<void> append_id_range(int start, int end, std::vector<std::string>& ids);

}  // namespace trainyard::azure::detail
