#include "regex_budget.hpp"

#include <algorithm>
#include <cctype>
#include <vector>

namespace trainyard {
namespace {

// One open group: what it holds so far, and the size of its last piece (what a repetition
// that follows it repeats).
struct Group {
  double total = 0;
  double last = 0;
};

void add_piece(Group& g, double size) {
  g.total += size;
  g.last = size;
}

// `last` repeated `times` in all: the copies beyond the first are added.
void repeat(Group& g, double times) {
  if (times <= 1) return;
  g.total += g.last * (times - 1);
  g.last *= times;
}

// The index of a bracket expression's `]`, from its `[` at `open` (`[]a]` and `[^]a]` hold a `]`).
size_t bracket_end(std::string_view p, size_t open) {
  size_t i = open + 1;
  if (i < p.size() && p[i] == '^') ++i;
  if (i < p.size() && p[i] == ']') ++i;
  while (i < p.size() && p[i] != ']') ++i;
  return i;
}

// The count of a `{m}`, `{m,}` or `{m,n}` at `open` (its largest), and where it ends; a `{`
// that starts no bound is an ordinary character (count 0).
double bound_count(std::string_view p, size_t open, size_t& end) {
  size_t close = p.find('}', open);
  if (close == std::string_view::npos) return 0;
  double most = 0, current = 0;
  for (size_t i = open + 1; i < close; ++i) {
    char c = p[i];
    if (c == ',') {
      most = std::max(most, current);
      current = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      current = current * 10 + (c - '0');
    } else {
      return 0;
    }
  }
  end = close;
  return std::max({most, current, 1.0});
}

}  // namespace

double regex_cost(std::string_view p) {
  std::vector<Group> open(1);
  for (size_t i = 0; i < p.size(); ++i) {
    Group& g = open.back();
    char c = p[i];
    if (c == '\\') {
      ++i;
      add_piece(g, 1);
    } else if (c == '[') {
      i = bracket_end(p, i);
      add_piece(g, 1);
    } else if (c == '(') {
      open.emplace_back();
    } else if (c == ')' && open.size() > 1) {
      double inner = open.back().total + 1;
      open.pop_back();
      add_piece(open.back(), inner);
    } else if (c == '+' || c == '*' || c == '?') {
      repeat(g, 2);
    } else if (size_t end = i; c == '{' && bound_count(p, i, end) > 0) {
      repeat(g, bound_count(p, i, end));
      i = end;
    } else {
      add_piece(g, 1);
    }
  }
  // Groups left open (the pattern is still being typed) count as they stand.
  double total = 0;
  for (const auto& g : open) total += g.total;
  return total;
}

}  // namespace trainyard
