#include "widgets/log_view.hpp"

#include <algorithm>

#include "core/text.hpp"

namespace trainyard {
namespace {

// One grapheme of a log line: its bytes in the joined text, width and role.
struct Glyph {
  std::size_t start = 0;
  std::size_t len = 0;
  int width = 1;
  Role role = Role::LogText;
};

void mark_matches(const std::string& text, const std::string& needle, Role role,
                  std::vector<Role>& roles) {
  if (needle.empty() || needle.size() > text.size()) return;
  for (std::size_t i = 0; i + needle.size() <= text.size(); ++i) {
    bool match = true;
    for (std::size_t j = 0; j < needle.size() && match; ++j) {
      match = ascii_lower(text[i + j]) == ascii_lower(needle[j]);
    }
    if (!match) continue;
    std::fill(roles.begin() + static_cast<long>(i),
              roles.begin() + static_cast<long>(i + needle.size()), role);
    i += needle.size() - 1;
  }
}

std::vector<Glyph> shape(const LogLine& line, std::string& text, const std::string& search,
                         Role match_role) {
  std::vector<Role> roles;
  for (const auto& span : line) {
    text += span.text;
    roles.insert(roles.end(), span.text.size(), span.role);
  }
  mark_matches(text, search, match_role, roles);
  std::vector<Glyph> glyphs;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t start = pos;
    int w = codepoint_width(decode_utf8(text, pos));
    if (w == 0 && !glyphs.empty()) {
      glyphs.back().len += pos - start;  // combining marks stay with their base
      continue;
    }
    glyphs.push_back({start, pos - start, std::max(w, 1), roles[start]});
  }
  return glyphs;
}

// Draws glyphs from `first` into one row; returns the index of the first glyph not drawn.
std::size_t draw_row(Canvas& canvas, const std::string& text, const std::vector<Glyph>& glyphs,
                     std::size_t first, Rect row) {
  int x = row.x;
  std::size_t i = first;
  for (; i < glyphs.size(); ++i) {
    const Glyph& g = glyphs[i];
    if (x + g.width > row.right()) break;
    canvas.draw_text(x, row.y, std::string_view(text).substr(g.start, g.len), g.role, g.width);
    x += g.width;
  }
  return i;
}

// The glyph after the last that fits in one row of `width` cells from `first`.
std::size_t row_end(const std::vector<Glyph>& glyphs, std::size_t first, int width) {
  int x = 0;
  std::size_t i = first;
  for (; i < glyphs.size() && x + glyphs[i].width <= width; ++i) x += glyphs[i].width;
  // A glyph wider than the row still takes a row of its own, so wrapping always moves on.
  return i == first && i < glyphs.size() ? i + 1 : i;
}

std::size_t skip_cells(const std::vector<Glyph>& glyphs, int cells) {
  std::size_t i = 0;
  for (; i < glyphs.size() && cells > 0; ++i) cells -= glyphs[i].width;
  return i;
}

void draw_status(const LogViewVm& vm, std::size_t last_shown, Canvas& canvas, Rect row) {
  canvas.fill(row, Role::StatusBar);
  std::string pos = "L " + std::to_string(last_shown) + "/" + std::to_string(vm.total_lines);
  int x = row.right() - text_width(pos);
  canvas.draw_text(x, row.y, pos, Role::StatusBar, row.right() - x);
  if (vm.follow) x -= 8, canvas.draw_text(x, row.y, "follow", Role::StatusOk, 6);
  if (vm.wrap) x -= 6, canvas.draw_text(x, row.y, "wrap", Role::StatusAge, 4);
  if (vm.times) x -= 7, canvas.draw_text(x, row.y, "times", Role::StatusAge, 5);
  std::string left = vm.search.empty() ? "" : "/" + vm.search;
  if (!vm.note.empty()) left += (left.empty() ? "" : "  ") + vm.note;
  if (!left.empty()) canvas.draw_text_truncated(row.x, row.y, left, Role::StatusBar, x - 2 - row.x);
}

// The gutter's width: the widest time and a space; none when it would leave no room for text.
int gutter_width(const LogViewVm& vm, int width) {
  if (!vm.times) return 0;
  int w = 0;
  for (const auto& t : vm.line_times) w = std::max(w, text_width(t) + 1);
  return w < width ? w : 0;
}

// The marks of a cut line: `<` where text was scrolled past, `>` where more follows.
void mark_cut(Canvas& canvas, Rect row, bool before, bool after) {
  if (row.w < 2) return;
  if (before) canvas.draw_text(row.x, row.y, "<", Role::LogPlaceholder, 1);
  if (after) canvas.draw_text(row.right() - 1, row.y, ">", Role::LogPlaceholder, 1);
}

// One line: its rows from `skip_rows` on when wrapping, else its one row from x_offset. Returns
// the next free row.
int draw_line(const LogViewVm& vm, Canvas& canvas, const std::string& text,
              const std::vector<Glyph>& glyphs, std::size_t skip_rows, Rect area, int y) {
  if (!vm.wrap) {
    std::size_t from = skip_cells(glyphs, vm.x_offset);
    std::size_t next = draw_row(canvas, text, glyphs, from, {area.x, y, area.w, 1});
    mark_cut(canvas, {area.x, y, area.w, 1}, vm.x_offset > 0 && !glyphs.empty(),
             next < glyphs.size());
    return y + 1;
  }
  std::size_t next = 0;
  for (std::size_t skipped = 0; skipped < skip_rows && next < glyphs.size(); ++skipped)
    next = row_end(glyphs, next, area.w);
  do next = draw_row(canvas, text, glyphs, next, {area.x, y++, area.w, 1});
  while (next < glyphs.size() && y < area.bottom() && area.w > 1);
  return y;
}

}  // namespace

std::size_t wrapped_rows(const LogLine& line, int width) {
  std::string text;
  auto glyphs = shape(line, text, "", Role::LogText);
  std::size_t rows = 1;
  if (width < 1) return rows;
  for (std::size_t next = row_end(glyphs, 0, width); next < glyphs.size();
       next = row_end(glyphs, next, width))
    ++rows;
  return rows;
}

int line_cells(const LogLine& line) {
  int cells = 0;
  for (const auto& span : line) cells += text_width(span.text);
  return cells;
}

int log_text_width(const LogViewVm& vm, int width) {
  return width - gutter_width(vm, width);
}

void render_log_view(const LogViewVm& vm, Canvas& canvas, Rect r) {
  if (r.empty()) return;
  Rect body = r.drop_bottom(1);
  canvas.fill(body, Role::LogText);
  int gutter = gutter_width(vm, body.w);
  Rect text_area{body.x + gutter, body.y, body.w - gutter, body.h};
  int y = body.y;
  std::size_t last_shown = vm.first_line;
  for (std::size_t li = 0; li < vm.lines.size() && y < body.bottom(); ++li) {
    std::size_t number = vm.first_line + li;
    Role match = vm.current_match == number ? Role::LogMatchCurrent : Role::LogMatch;
    std::string text;
    auto glyphs = shape(vm.lines[li], text, vm.search, match);
    if (gutter > 0 && li < vm.line_times.size())
      canvas.draw_text(body.x, y, vm.line_times[li], Role::StatusAge, gutter - 1);
    y = draw_line(vm, canvas, text, glyphs, li == 0 ? vm.first_row : 0, text_area, y);
    last_shown = number + 1;
  }
  draw_status(vm, last_shown, canvas, r.bottom_rows(1));
}

}  // namespace trainyard
