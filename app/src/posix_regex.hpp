// A user's regular expression (the table filter's `/regex/`, `:grep /regex/`), compiled with
// glibc's POSIX extended matcher: it keeps no stack per character of the text (std::regex
// recurses per character and overflows the stack on lines of some 20,000 characters). Its
// search can take time quadratic in the text for a pattern that fails, so only a text's first
// kRegexWindow bytes are searched.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace trainyard {

/// How much of a text a search looks at: a row, or a log line's start.
inline constexpr size_t kRegexWindow = 4096;

/// A compiled POSIX extended regex; shared, immutable, freed with its last holder.
class PosixRegex {
 public:
  /// Compiles `pattern` (ASCII case ignored with `ignore_case`). The error's text says why (the
  /// matcher's reason, or "too many repetitions to compile" over regex_budget.hpp's bound);
  /// callers name the pattern and its place.
  static Result<std::shared_ptr<const PosixRegex>> compile(std::string_view pattern,
                                                           bool ignore_case);
  ~PosixRegex();
  PosixRegex(const PosixRegex&) = delete;
  PosixRegex& operator=(const PosixRegex&) = delete;

  /// Whether the first kRegexWindow bytes of `text` hold a match.
  bool matches(const std::string& text) const;
  /// The first match in the first kRegexWindow bytes of `text` as (offset, length).
  std::optional<std::pair<size_t, size_t>> find(const std::string& text) const;

 private:
  PosixRegex();
  struct Compiled;
  std::unique_ptr<Compiled> compiled_;
};

}  // namespace trainyard
