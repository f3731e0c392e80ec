// Internal: searching logs for a pattern (the TUI's `:grep`): plain text, or a regular
// expression between slashes, matched against each line as the screen shows it (sanitized).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "user_regex.hpp"

namespace trainyard {

/// A parsed `:grep` pattern.
struct GrepPattern {
  std::string text;  ///< as typed, without the slashes of a regex
  bool regex = false;
  std::shared_ptr<const UserRegex> re;  ///< when `regex`
};

/// `loss` (plain text, ASCII case ignored) or `/loss=0\.[0-4]/` (an RE2 regex, user_regex.hpp, case
/// as written, as the filter's); a Usage error for an empty pattern or a regex that does not
/// compile.
Result<GrepPattern> parse_grep_pattern(const std::string& text);

/// Whether `line` matches.
bool grep_matches(const GrepPattern& p, const std::string& line);

/// The first text of `line` that matches (what a log view highlights); empty when none.
std::string grep_match_text(const GrepPattern& p, const std::string& line);

/// One matching line of a file.
struct GrepLine {
  size_t line = 0;   ///< 0-based
  std::string text;  ///< sanitized
};

/// The matching lines of the log at `path`, at most `limit` of them; an Io error when it cannot
/// be read.
Result<std::vector<GrepLine>> grep_file(const std::string& path, const GrepPattern& p,
                                        size_t limit);

}  // namespace trainyard
