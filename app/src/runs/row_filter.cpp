// The table panes' filter language: parsing (terms split at spaces, a `/regex/` may hold
// spaces) and matching a row.
#include "row_filter.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

#include "core/text.hpp"

namespace trainyard {

namespace {

bool is_field_name(std::string_view s) {
  if (s.empty() || !(std::isalpha(static_cast<unsigned char>(s[0])) || s[0] == '_')) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

std::optional<double> as_number(const std::string& s) {
  if (s.empty() || std::isspace(static_cast<unsigned char>(s[0]))) return std::nullopt;
  char* end = nullptr;
  double v = std::strtod(s.c_str(), &end);
  if (end != s.c_str() + s.size()) return std::nullopt;
  return v;
}

// The comparison at the front of a field's operand (`!=0`, `>1`, `=x`), taken off `value`.
FilterOp take_op(std::string& value) {
  static const std::pair<const char*, FilterOp> ops[] = {{"!=", FilterOp::Ne}, {">=", FilterOp::Ge},
                                                         {"<=", FilterOp::Le}, {">", FilterOp::Gt},
                                                         {"<", FilterOp::Lt},  {"=", FilterOp::Eq}};
  for (const auto& [text, op] : ops) {
    std::string_view t(text);
    if (value.compare(0, t.size(), t) == 0) {
      value.erase(0, t.size());
      return op;
    }
  }
  return FilterOp::Eq;
}

// A `field:value` term; nullopt when the operand is still empty (a term being typed).
std::optional<FilterTerm> field_term(FilterTerm t, size_t colon) {
  t.kind = FilterTerm::Kind::Field;
  t.field = ascii_lowercase(t.raw.substr(0, colon));
  t.value = t.raw.substr(colon + 1);
  t.op = take_op(t.value);
  if (t.value.empty()) return std::nullopt;
  if (t.value.find_first_of("*?") != std::string::npos &&
      (t.op == FilterOp::Eq || t.op == FilterOp::Ne)) {
    if (t.op == FilterOp::Ne) t.negate = !t.negate;
    t.op = FilterOp::Glob;
  }
  return t;
}

Result<FilterTerm> regex_term(FilterTerm t, std::string pattern) {
  t.kind = FilterTerm::Kind::Regex;
  t.value = pattern;
  std::string unescaped;  // `\/` is a slash of the pattern, not its end
  for (size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] == '\\' && i + 1 < pattern.size() && pattern[i + 1] == '/') ++i;
    unescaped += pattern[i];
  }
  // Multi-line: a row's text is one line per cell, and ^ $ anchor on each (tui_pane.hpp).
  auto re = UserRegex::compile("(?m)" + unescaped, true);
  if (!re)
    return make_error(ErrorKind::Usage,
                      std::string(kBadFilter) + "regex /" + pattern + "/: " + re.error().message);
  t.regex = std::move(*re);
  return t;
}

// The end of a `/regex/` that starts at `open` (its closing slash, or the text's end while the
// regex is still being typed); `\/` is a slash inside it.
size_t regex_end(std::string_view text, size_t open) {
  for (size_t i = open + 1; i < text.size(); ++i) {
    if (text[i] == '\\')
      ++i;
    else if (text[i] == '/')
      return i;
  }
  return text.size();
}

// The term at `pos` (past spaces); `pos` moves past it. nullopt term: nothing to add.
Result<std::optional<FilterTerm>> next_term(std::string_view text, size_t& pos) {
  FilterTerm t;
  while (pos < text.size() && text[pos] == '!') t.negate = !t.negate, ++pos;
  if (pos < text.size() && text[pos] == '/') {
    size_t end = regex_end(text, pos);
    std::string pattern(text.substr(pos + 1, end - pos - 1));
    t.raw = std::string(text.substr(pos, end + 1 - pos));
    pos = std::min(end + 1, text.size());
    if (pattern.empty()) return std::optional<FilterTerm>();
    auto r = regex_term(std::move(t), std::move(pattern));
    if (!r) return r.error();
    return std::optional<FilterTerm>(std::move(*r));
  }
  size_t end = text.find(' ', pos);
  if (end == std::string_view::npos) end = text.size();
  t.raw = std::string(text.substr(pos, end - pos));
  pos = end;
  if (t.raw.empty()) return std::optional<FilterTerm>();
  size_t colon = t.raw.find(':');
  if (colon != std::string::npos && is_field_name(std::string_view(t.raw).substr(0, colon)))
    return field_term(std::move(t), colon);
  t.value = t.raw;
  return std::optional<FilterTerm>(std::move(t));
}

bool compare(FilterOp op, int cmp) {
  switch (op) {
    case FilterOp::Eq:
      return cmp == 0;
    case FilterOp::Ne:
      return cmp != 0;
    case FilterOp::Lt:
      return cmp < 0;
    case FilterOp::Le:
      return cmp <= 0;
    case FilterOp::Gt:
      return cmp > 0;
    case FilterOp::Ge:
      return cmp >= 0;
    case FilterOp::Glob:
      break;
  }
  return false;
}

bool field_holds(const FilterTerm& t, const std::vector<std::string>& values) {
  // Ne asks that no value is the operand (a failed task's state is `completed` and `failed`).
  if (t.op == FilterOp::Ne) {
    FilterTerm eq = t;
    eq.op = FilterOp::Eq;
    bool any = false, none_equal = true;
    for (const auto& v : values)
      if (!v.empty()) any = true, none_equal = none_equal && !field_value_matches(eq, v);
    return any && none_equal;
  }
  return std::any_of(values.begin(), values.end(),
                     [&](const std::string& v) { return field_value_matches(t, v); });
}

bool term_holds(const FilterTerm& t, const std::string& text, const FieldValues& values) {
  switch (t.kind) {
    case FilterTerm::Kind::Text:
      return contains_ci(text, t.value);
    case FilterTerm::Kind::Regex:
      return t.regex->matches(text);
    case FilterTerm::Kind::Field:
      break;
  }
  auto v = values ? values(t.field) : std::nullopt;
  return v ? field_holds(t, *v) : contains_ci(text, t.raw);
}

}  // namespace

Result<RowFilter> parse_row_filter(std::string_view text) {
  RowFilter f;
  size_t pos = 0;
  while (pos < text.size()) {
    if (text[pos] == ' ') {
      ++pos;
      continue;
    }
    auto t = next_term(text, pos);
    if (!t) return t.error();
    if (*t) f.terms.push_back(std::move(**t));
  }
  return f;
}

bool field_value_matches(const FilterTerm& t, const std::string& value) {
  if (value.empty()) return false;  // no value (a running task's exit code) compares to nothing
  if (t.op == FilterOp::Glob) return glob_matches_ci(t.value, value);
  auto a = as_number(value), b = as_number(t.value);
  if (a && b) return compare(t.op, *a < *b ? -1 : *a > *b ? 1 : 0);
  // A number and a word (an exit code and a failure code) differ, and neither is larger.
  if (a.has_value() != b.has_value() && t.op != FilterOp::Eq && t.op != FilterOp::Ne) return false;
  int cmp = ascii_lowercase(value).compare(ascii_lowercase(t.value));
  return compare(t.op, cmp < 0 ? -1 : cmp > 0 ? 1 : 0);
}

bool row_matches(const RowFilter& f, const std::string& text, const FieldValues& values) {
  return std::all_of(f.terms.begin(), f.terms.end(),
                     [&](const FilterTerm& t) { return term_holds(t, text, values) != t.negate; });
}

bool contains_ci(std::string_view hay, std::string_view needle) {
  if (needle.empty()) return true;
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(),
                        [](char a, char b) { return ascii_lower(a) == ascii_lower(b); });
  return it != hay.end();
}

bool glob_matches_ci(std::string_view pattern, std::string_view text) {
  // Iterative matching with one backtrack point: linear in practice, never exponential.
  size_t p = 0, s = 0, star = std::string_view::npos, mark = 0;
  while (s < text.size()) {
    if (p < pattern.size() &&
        (pattern[p] == '?' || ascii_lower(pattern[p]) == ascii_lower(text[s]))) {
      ++p, ++s;
    } else if (p < pattern.size() && pattern[p] == '*') {
      star = p++, mark = s;
    } else if (star != std::string_view::npos) {
      p = star + 1, s = ++mark;
    } else {
      return false;
    }
  }
  while (p < pattern.size() && pattern[p] == '*') ++p;
  return p == pattern.size();
}

}  // namespace trainyard
