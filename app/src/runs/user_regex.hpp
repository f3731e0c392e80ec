// A user's regular expression (the table filter's `/regex/`, `:grep /regex/`), compiled with
// RE2: matching takes time linear in the text and keeps no stack per character, and compiling
// is bounded in memory, so no pattern a user types can hang or crash the TUI (std::regex
// overflowed the stack on long lines; glibc's regcomp took seconds and gigabytes on stacked
// repetitions such as `a+++…`). The syntax is RE2's: POSIX extended plus Perl's classes
// (`\d`, `\w`, `\s`, `\b`); backreferences are not supported.
#pragma once

#include <memory>
#include <optional>
#include <string_view>
#include <utility>

#include "core/result.hpp"

namespace re2 {
class RE2;
}

namespace trainyard {

/// A compiled regex; shared, immutable, freed with its last holder, safe to match from any thread.
class UserRegex {
 public:
  /// Compiles `pattern` (case ignored with `ignore_case`). The error's text is RE2's reason,
  /// e.g. "missing ): (unclosed"; callers name the pattern and its place.
  static Result<std::shared_ptr<const UserRegex>> compile(std::string_view pattern,
                                                          bool ignore_case);
  ~UserRegex();
  UserRegex(const UserRegex&) = delete;
  UserRegex& operator=(const UserRegex&) = delete;

  /// Whether `text` holds a match anywhere.
  bool matches(std::string_view text) const;
  /// The first match in `text` as (offset, length).
  std::optional<std::pair<size_t, size_t>> find(std::string_view text) const;

 private:
  explicit UserRegex(std::unique_ptr<re2::RE2> re);
  std::unique_ptr<re2::RE2> re_;
};

}  // namespace trainyard
