// Internal: the one way the CLI prints. Every line for a person passes the sanitizer (each text
// argument, then the whole line), so nothing from outside (ids, command lines, display names,
// server messages, paths) can drive the terminal: controls, escapes, bidi and invisible characters
// show as inert placeholders, on one line. JSON keeps the exact text, escaped; raw bytes are
// written only where the user asked for them (`logs --raw`).
#pragma once

#include <cstdio>
#include <string>
#include <string_view>
#include <tuple>
#include <type_traits>
#include <utility>

#include <fmt/format.h>
#include <nlohmann/json_fwd.hpp>

#include "core/sanitizer.hpp"

namespace trainyard::out {

/// Writes `text`, sanitized to one inert line, and a newline.
void line(std::FILE* to, std::string_view text);
/// Writes each line of `text` (split at `\n`; a final `\n` ends an empty last line) as line()
/// does.
void lines(std::FILE* to, std::string_view text);
/// Writes `text` sanitized, without a newline, and flushes (a prompt, a piece of a long line).
void text(std::FILE* to, std::string_view text);

/// Writes a JSON value to stdout and a newline: the exact text of every string, with controls,
/// DEL, C1, bidi and invisible characters as `\uXXXX` escapes, so the output is inert on a terminal
/// and parses back to the same strings. Invalid UTF-8 becomes U+FFFD.
void json(const nlohmann::json& value, int indent = 2);
/// Like json() for a value already serialized (dumped) elsewhere.
void json_text(std::string_view dumped);

/// One CSV field (RFC 4180): quoted (with `"` doubled) when it holds a comma, a quote or a line
/// end.
std::string csv_field(const std::string& s);

/// Writes bytes exactly as they are. Only for output the user asked to get raw (`logs --raw`).
void raw(std::FILE* to, std::string_view bytes);

namespace detail {

// A string argument is sanitized before it is formatted, so that padding counts what is shown.
template <typename T>
decltype(auto) safe(T&& value) {
  if constexpr (std::is_convertible_v<const std::remove_cvref_t<T>&, std::string_view>) {
    return sanitize_text(std::string_view(value));
  } else {
    return std::forward<T>(value);
  }
}

template <typename T>
using safe_t = std::decay_t<decltype(safe(std::declval<T>()))>;

// Formats the sanitized arguments (held here, so that they outlive the formatting).
template <typename... T>
std::string format_safe(fmt::string_view format, T&&... args) {
  auto values = std::make_tuple(safe(std::forward<T>(args))...);
  return std::apply([&](auto&... v) { return fmt::vformat(format, fmt::make_format_args(v...)); },
                    values);
}

}  // namespace detail

/// One line for a person on stdout: `format` is this program's, every argument is sanitized.
template <typename... T>
void print(fmt::format_string<detail::safe_t<T>...> format, T&&... args) {
  line(stdout, detail::format_safe(format, std::forward<T>(args)...));
}

/// One line on stderr (errors, warnings, notes), as print() does.
template <typename... T>
void eprint(fmt::format_string<detail::safe_t<T>...> format, T&&... args) {
  line(stderr, detail::format_safe(format, std::forward<T>(args)...));
}

}  // namespace trainyard::out
