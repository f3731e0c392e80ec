// Evaluation of a parsed `$filter`. It runs once per entity over lists of up to a million tasks,
// so it works on the literals the parser already converted and never allocates.
#include "emulator/odata_filter.hpp"

#include <algorithm>
#include <cctype>
#include <string>

namespace trainyard::emu {
namespace {

char fold(char c) {
  return static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
}

// Three-way comparison of `value` with a literal that is already lowercase.
int compare_folded(std::string_view value, std::string_view folded) {
  size_t n = std::min(value.size(), folded.size());
  for (size_t i = 0; i < n; ++i) {
    char a = fold(value[i]);
    if (a != folded[i])
      return static_cast<unsigned char>(a) < static_cast<unsigned char>(folded[i]) ? -1 : 1;
  }
  if (value.size() == folded.size()) return 0;
  return value.size() < folded.size() ? -1 : 1;
}

bool starts_with_folded(std::string_view value, std::string_view folded) {
  return value.size() >= folded.size() &&
         compare_folded(value.substr(0, folded.size()), folded) == 0;
}

bool apply(FilterOp op, int cmp) {
  switch (op) {
    case FilterOp::Eq:
      return cmp == 0;
    case FilterOp::Ne:
      return cmp != 0;
    case FilterOp::Gt:
      return cmp > 0;
    case FilterOp::Ge:
      return cmp >= 0;
    case FilterOp::Lt:
      return cmp < 0;
    case FilterOp::Le:
      return cmp <= 0;
    case FilterOp::StartsWith:
      return false;  // handled by compare_text
  }
  return false;
}

// A missing value (or one of the wrong type) only satisfies `ne` and a negated startswith.
bool missing(const FilterNode& n) {
  return n.op == FilterOp::Ne || (n.op == FilterOp::StartsWith && n.negate);
}

bool compare_text(const FilterNode& n, const FilterValue& v, bool folded) {
  const std::string* value = std::get_if<std::string>(&v);
  const std::string* literal = std::get_if<std::string>(&n.literal);
  if (value == nullptr || literal == nullptr) return missing(n);
  const std::string& lit = *literal;
  if (n.op == FilterOp::StartsWith) {
    bool hit = folded ? starts_with_folded(*value, lit) : std::string_view(*value).starts_with(lit);
    return hit != n.negate;
  }
  int cmp = folded ? compare_folded(*value, lit) : value->compare(lit);
  return apply(n.op, cmp < 0 ? -1 : (cmp > 0 ? 1 : 0));
}

template <typename T>
bool compare_scalar(const FilterNode& n, const FilterValue& v) {
  const T* value = std::get_if<T>(&v);
  const T* lit = std::get_if<T>(&n.literal);
  if (value == nullptr || lit == nullptr) return missing(n);
  return apply(n.op, *value < *lit ? -1 : (*lit < *value ? 1 : 0));
}

bool compare(const FilterNode& n, const FilterValue& v) {
  switch (n.prop->type) {
    case FilterType::Text:
      return compare_text(n, v, false);
    case FilterType::Name:
      return compare_text(n, v, true);
    case FilterType::Time:
      return compare_scalar<Timestamp>(n, v);
    case FilterType::Int:
      return compare_scalar<int64_t>(n, v);
    case FilterType::Bool:
      return compare_scalar<bool>(n, v);
  }
  return false;
}

}  // namespace

bool evaluate_filter_node(const FilterNode& node, const PropertyLookup& get) {
  switch (node.kind) {
    case FilterNode::Kind::And:
      for (const FilterNode& c : node.children) {
        if (!evaluate_filter_node(c, get)) return false;
      }
      return true;
    case FilterNode::Kind::Or:
      for (const FilterNode& c : node.children) {
        if (evaluate_filter_node(c, get)) return true;
      }
      return false;
    case FilterNode::Kind::Compare:
      return compare(node, get(node.prop->name));
  }
  return false;
}

Filter::Filter() = default;
Filter::~Filter() = default;
Filter::Filter(Filter&&) noexcept = default;
Filter& Filter::operator=(Filter&&) noexcept = default;

Result<Filter> Filter::parse(std::string_view text, ListKind list) {
  auto tree = parse_filter_tree(text, list);
  if (!tree.ok()) return tree.error();
  Filter filter;
  filter.root_ = std::move(tree).value();
  return filter;
}

bool Filter::matches(const PropertyLookup& get) const {
  return !root_ || evaluate_filter_node(*root_, get);
}

bool Filter::empty() const {
  return !root_;
}

}  // namespace trainyard::emu
