// The OData `$filter` subset the Batch service accepts, with the per-list property tables.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::emu {

/// Which list a filter applies to; each allows its own properties and operators.
enum class ListKind {
  Pools,
  Nodes,
  Jobs,
  JobSchedules,
  Tasks,
  TaskFiles,
  NodeFiles,
  NodeCounts,
  SupportedImages,
  JobPrepRelease,
};

/// A property value as a filter compares it; monostate when the entity lacks it.
using FilterValue = std::variant<std::monostate, std::string, int64_t, bool, Timestamp>;

/// Returns the value of a property path as written in the filter (e.g. `executionInfo/exitCode`).
/// The path is always the docs' spelling from the list's table, whatever case the filter used.
using PropertyLookup = std::function<FilterValue(std::string_view path)>;

/// The value type of a filterable property, from the docs' tables.
enum class FilterType : uint8_t {
  Text,  ///< string compared ordinally (ids, file names)
  Name,  ///< string compared case-insensitively (enums such as `state`, `vmSize`)
  Time,  ///< DateTime: `datetime'…'` or a quoted ISO 8601 string
  Int,   ///< integer (exit codes)
  Bool,  ///< `true` / `false`
};

/// A `$filter` operator; its value is its bit in FilterProperty::ops.
enum class FilterOp : uint8_t { Eq, Ne, Gt, Ge, Lt, Le, StartsWith };

/// One row of a list's table: a property, its type and the operators it allows.
struct FilterProperty {
  std::string_view name;  ///< the docs' spelling, passed to PropertyLookup
  FilterType type;
  uint8_t ops;  ///< bit (1 << FilterOp) set for each allowed operator
};

/// The row for `name` (matched case-insensitively) in `list`'s table; nullptr when not allowed.
const FilterProperty* find_filter_property(ListKind list, std::string_view name);
/// Every row of `list`'s table.
std::vector<FilterProperty> filter_properties(ListKind list);
/// How error messages name the list: `tasks`, `pools`, `compute nodes`, …
std::string_view filter_list_noun(ListKind list);
/// The operator as written in a filter: `eq`, …, `startswith`.
std::string_view filter_op_name(FilterOp op);

/// A node of a parsed filter: an `and` / `or` of children, or one comparison.
struct FilterNode {
  enum class Kind : uint8_t { And, Or, Compare };
  Kind kind = Kind::Compare;
  FilterOp op = FilterOp::Eq;
  bool negate = false;  ///< `startswith(…) eq false`
  const FilterProperty* prop = nullptr;
  FilterValue literal;  ///< converted to the property's type at parse time
  std::vector<FilterNode> children;
};

/// The tree behind Filter::parse; nullptr for an empty filter.
Result<std::unique_ptr<FilterNode>> parse_filter_tree(std::string_view text, ListKind list);
/// Evaluates a tree that parse_filter_tree built.
bool evaluate_filter_node(const FilterNode& node, const PropertyLookup& get);

/// A parsed `$filter`; the empty filter matches everything.
class Filter {
 public:
  Filter();
  ~Filter();
  Filter(Filter&&) noexcept;
  Filter& operator=(Filter&&) noexcept;

  /// Parses `text` for `list`. A syntax error, or a property or operator the list does not
  /// allow, is an Error whose message is fit for a 400 `InvalidQueryParameterValue` body.
  static Result<Filter> parse(std::string_view text, ListKind list);
  /// True when the entity the lookup describes passes the filter.
  bool matches(const PropertyLookup& get) const;
  /// True for the filter that matches everything.
  bool empty() const;

 private:
  std::unique_ptr<FilterNode> root_;
};

}  // namespace trainyard::emu
