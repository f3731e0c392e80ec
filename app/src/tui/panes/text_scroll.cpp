#include "text_scroll.hpp"

#include <algorithm>

namespace trainyard {
namespace {

struct Position {
  std::size_t line = 0, row = 0;
  auto operator<=>(const Position&) const = default;
};

std::size_t rows_of(const TextScroll& s, const TextLines& lines, std::size_t line) {
  auto one = lines.read(line, 1);
  return one.empty() ? 1 : wrapped_rows(one.front(), s.width);
}

// The first position that shows the end: the last lines' rows, counted from the bottom.
Position bottom(const TextScroll& s, const TextLines& lines) {
  auto height = static_cast<std::size_t>(std::max(1, s.height));
  if (lines.count <= height && !s.wrap) return {};
  if (!s.wrap) return {lines.count - height, 0};
  std::size_t first = lines.count > height ? lines.count - height : 0;
  auto window = lines.read(first, lines.count - first);
  std::size_t filled = 0;
  for (std::size_t i = window.size(); i-- > 0;) {
    std::size_t rows = wrapped_rows(window[i], s.width);
    if (filled + rows >= height) return {first + i, filled + rows - height};
    filled += rows;
  }
  return {};
}

Position position(const TextScroll& s) {
  return {s.top, s.wrap ? s.top_row : 0};
}

void set(TextScroll& s, Position p) {
  s.top = p.line;
  s.top_row = s.wrap ? p.row : 0;
}

// The rows of one line at a time, measured once while the scroll stays in it: a line of
// 50,000 characters is shaped once per key, not once per row.
class RowCounter {
 public:
  RowCounter(const TextScroll& s, const TextLines& lines) : s_(s), lines_(lines) {}
  std::size_t operator()(std::size_t line) {
    if (line != line_) line_ = line, rows_ = rows_of(s_, lines_, line);
    return rows_;
  }

 private:
  const TextScroll& s_;
  const TextLines& lines_;
  std::size_t line_ = static_cast<std::size_t>(-1), rows_ = 1;
};

// One row further down; false at the last row of the last line.
bool row_down(const TextScroll& s, const TextLines& lines, RowCounter& rows, Position& p) {
  if (s.wrap && p.row + 1 < rows(p.line)) return ++p.row, true;
  if (p.line + 1 >= lines.count) return false;
  p = {p.line + 1, 0};
  return true;
}

bool row_up(const TextScroll& s, RowCounter& rows, Position& p) {
  if (p.row > 0) return --p.row, true;
  if (p.line == 0) return false;
  p.line -= 1;
  p.row = s.wrap ? rows(p.line) - 1 : 0;
  return true;
}

}  // namespace

void scroll_rows(TextScroll& s, const TextLines& lines, long rows) {
  Position p = position(s), end = bottom(s, lines);
  RowCounter count(s, lines);
  for (; rows > 0 && p < end && row_down(s, lines, count, p); --rows) {
  }
  for (; rows < 0 && row_up(s, count, p); ++rows) {
  }
  set(s, std::min(p, end));
}

void scroll_to_top(TextScroll& s) {
  s.top = s.top_row = 0;
}

void scroll_to_bottom(TextScroll& s, const TextLines& lines) {
  set(s, bottom(s, lines));
}

bool at_bottom(const TextScroll& s, const TextLines& lines) {
  return position(s) >= bottom(s, lines);
}

void scroll_to_line(TextScroll& s, const TextLines& lines, std::size_t line) {
  auto half = static_cast<std::size_t>(std::max(1, s.height) / 2);
  set(s, std::min(Position{line > half ? line - half : 0, 0}, bottom(s, lines)));
}

namespace {

// The offset that shows the end of the longest line on screen, past the `>` mark.
int last_offset(const TextScroll& s, const TextLines& lines) {
  int longest = 0;
  for (const auto& l : lines.read(s.top, static_cast<std::size_t>(std::max(1, s.height))))
    longest = std::max(longest, line_cells(l));
  return std::max(0, longest - s.width + 1);
}

}  // namespace

bool scroll_sideways(TextScroll& s, const TextLines& lines, Action a) {
  int step = std::max(1, s.width / 2);
  switch (a) {
    case Action::ScrollLeft:
      s.x = std::max(0, s.x - step);
      return true;
    case Action::ScrollRight:
      s.x = std::min(s.x + step, last_offset(s, lines));
      return true;
    case Action::LineStart:
      s.x = 0;
      return true;
    case Action::LineEnd:
      s.x = last_offset(s, lines);
      return true;
    default:
      return false;
  }
}

void toggle_wrap(TextScroll& s) {
  s.wrap = !s.wrap;
  s.top_row = 0;
  s.x = 0;
}

}  // namespace trainyard
