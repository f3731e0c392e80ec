// Internal: the table panes' filter language. Terms are separated by spaces and all must hold:
//   text        the row's text contains it (ASCII case ignored)
//   field:v     the column `field` is v (`state:failed`); v may be `*`/`?` glob (`pool:gpu*`),
//               or compare numbers (`exit:!=0`, `exit:>1`, `try:<=2`)
//   /regex/     one of the row's cells matches the regex (RE2 syntax, case ignored; matching is
//               linear in the row, so a typed pattern cannot hang the reader). Each cell is
//               matched as a text of its own, whole (the command as run, not as its column cuts
//               it): `^` and `$` anchor on it, and no match spans two cells
//   !term       the term does not hold
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "user_regex.hpp"

namespace trainyard {

/// How a `field:` term compares the column's value with its operand.
enum class FilterOp { Eq, Ne, Lt, Le, Gt, Ge, Glob };

/// One term of a filter.
struct FilterTerm {
  enum class Kind { Text, Field, Regex };
  Kind kind = Kind::Text;
  bool negate = false;                     ///< `!` prefix
  std::string field;                       ///< Field: the column id, lower case
  FilterOp op = FilterOp::Eq;              ///< Field: the comparison
  std::string value;                       ///< Text: the needle; Field: the operand
  std::string raw;                         ///< the term as typed, without `!`
  std::shared_ptr<const UserRegex> regex;  ///< Regex: the compiled pattern
};

/// A parsed filter: every term must hold.
struct RowFilter {
  std::vector<FilterTerm> terms;
};

/// How a parse error's message starts.
inline constexpr const char* kBadFilter = "bad filter: ";

/// Parses `text`; an invalid regex or an empty operand is a one-line Usage error.
Result<RowFilter> parse_row_filter(std::string_view text);

/// The values a column offers a `field:` term for a row (a failed task's state offers
/// `completed` and `failed`); nullopt: the pane has no such column.
using FieldValues = std::function<std::optional<std::vector<std::string>>(const std::string&)>;

/// True when `value` satisfies the field term `t` (compared as numbers when both are numbers).
bool field_value_matches(const FilterTerm& t, const std::string& value);

/// True when every term of `f` holds for a row whose whole text is `text`. A `field:` term on
/// a column the pane lacks is matched as plain text (`lr:0.1` in a command line).
bool row_matches(const RowFilter& f, const std::string& text, const FieldValues& values);

/// True when `needle` is in `hay`, ignoring ASCII case (plain text's match).
bool contains_ci(std::string_view hay, std::string_view needle);

/// True when `text` matches the glob `pattern` (`*` any run, `?` one byte; ASCII case ignored).
bool glob_matches_ci(std::string_view pattern, std::string_view text);

}  // namespace trainyard
