#include "widgets/canvas.hpp"

#include <algorithm>

namespace trainyard {

Rect Rect::intersect(const Rect& o) const {
  int nx = std::max(x, o.x), ny = std::max(y, o.y);
  int nr = std::min(right(), o.right()), nb = std::min(bottom(), o.bottom());
  return {nx, ny, std::max(0, nr - nx), std::max(0, nb - ny)};
}

Rect Rect::inset(int n) const {
  return {x + n, y + n, std::max(0, w - 2 * n), std::max(0, h - 2 * n)};
}
Rect Rect::top(int n) const {
  return {x, y, w, std::clamp(n, 0, std::max(h, 0))};
}
Rect Rect::bottom_rows(int n) const {
  int k = std::clamp(n, 0, std::max(h, 0));
  return {x, y + h - k, w, k};
}
Rect Rect::drop_top(int n) const {
  int k = std::clamp(n, 0, std::max(h, 0));
  return {x, y + k, w, h - k};
}
Rect Rect::drop_bottom(int n) const {
  return {x, y, w, h - std::clamp(n, 0, std::max(h, 0))};
}
Rect Rect::left(int n) const {
  return {x, y, std::clamp(n, 0, std::max(w, 0)), h};
}
Rect Rect::drop_left(int n) const {
  int k = std::clamp(n, 0, std::max(w, 0));
  return {x + k, y, w - k, h};
}
Rect Rect::centered(int cw, int ch) const {
  cw = std::clamp(cw, 0, std::max(w, 0));
  ch = std::clamp(ch, 0, std::max(h, 0));
  return {x + (w - cw) / 2, y + (h - ch) / 2, cw, ch};
}

Canvas::Canvas(int width, int height)
    : width_(std::max(width, 0)),
      height_(std::max(height, 0)),
      cells_(static_cast<std::size_t>(width_ * height_)) {}

void Canvas::clear() {
  std::fill(cells_.begin(), cells_.end(), Cell{});
}

// Overwriting half of a wide character blanks its other half, so no orphan halves remain.
void Canvas::unsplit(int x, int y) {
  if (!inside(x, y)) return;
  if (cell(x, y).continuation() && x > 0) cell(x - 1, y).grapheme = " ";
  if (x + 1 < width_ && cell(x + 1, y).continuation()) cell(x + 1, y).grapheme = " ";
}

// A cell holds only inert text: anything else is shown as U+FFFD.
std::string Canvas::inert_grapheme(std::string_view grapheme) {
  return is_inert_text(grapheme) ? std::string(grapheme) : std::string("\uFFFD");
}

void Canvas::put(int x, int y, std::string_view grapheme, int cell_width, Role role) {
  if (!inside(x, y) || (cell_width == 2 && x + 1 >= width_)) return;
  unsplit(x, y);
  cell(x, y) = Cell{inert_grapheme(grapheme), role, kAttrNone};
  if (cell_width == 2) {
    unsplit(x + 1, y);
    cell(x + 1, y) = Cell{"", role, kAttrNone};
  }
}

void Canvas::fill(Rect r, Role role, std::string_view grapheme) {
  r = r.intersect(bounds());
  if (r.empty()) return;
  const std::string shown = inert_grapheme(grapheme);
  for (int y = r.y; y < r.bottom(); ++y) {
    unsplit(r.x, y);
    unsplit(r.right() - 1, y);
    for (int x = r.x; x < r.right(); ++x) cell(x, y) = Cell{shown, role, kAttrNone};
  }
}

void Canvas::set_role(Rect r, Role role) {
  r = r.intersect(bounds());
  for (int y = r.y; y < r.bottom(); ++y) {
    for (int x = r.x; x < r.right(); ++x) cell(x, y).role = role;
  }
}

void Canvas::add_attrs(int x, int y, std::uint8_t attrs) {
  if (inside(x, y)) cell(x, y).attrs |= attrs;
}

// The one way text enters the canvas: its drawable form (inert placeholders for controls, escapes,
// bidi and invisible characters), so what is left of zero width is a combining mark.
int Canvas::draw_text(int x, int y, std::string_view raw, Role role, int max_width) {
  if (y < 0 || y >= height_ || max_width <= 0) return 0;
  std::string storage;
  const std::string_view text = drawable_text(raw, storage);
  const int limit = x + std::min(max_width, width_ - x);
  int cx = x;
  for (std::size_t pos = 0; pos < text.size();) {
    std::size_t start = pos;
    int w = codepoint_width(decode_utf8(text, pos));
    if (w == 0) {
      join_mark(x, cx, y, text.substr(start, pos - start));
      continue;
    }
    if (cx + w > limit) break;
    if (cx >= 0) put(cx, y, text.substr(start, pos - start), w, role);
    cx += w;
  }
  return cx - x;
}

// A combining mark joins the last grapheme this call drew (up to a few: a stack of marks must
// not grow one cell without bound).
void Canvas::join_mark(int first_x, int cx, int y, std::string_view mark) {
  if (cx <= first_x || cx - 1 < 0) return;
  int px = at(cx - 1, y).continuation() ? cx - 2 : cx - 1;
  if (px < 0) return;
  std::string& g = cell(px, y).grapheme;
  if (g.size() + mark.size() <= kMaxGraphemeBytes) g += mark;
}

int Canvas::draw_text_truncated(int x, int y, std::string_view text, Role role, int max_width) {
  return draw_text(x, y, truncate_to_width(text, max_width), role, max_width);
}

int Canvas::draw_aligned(int x, int y, std::string_view text, Role role, int width, Align align) {
  std::string s = truncate_to_width(text, width);
  int pad = width - text_width(s);
  int start = x + (align == Align::Right ? pad : align == Align::Center ? pad / 2 : 0);
  draw_text(start, y, s, role, width - (start - x));
  return start;
}

std::string Canvas::to_text() const {
  std::string out;
  for (int y = 0; y < height_; ++y) {
    std::string row;
    for (int x = 0; x < width_; ++x) row += at(x, y).grapheme;
    row.erase(row.find_last_not_of(' ') + 1);
    out += row;
    if (y + 1 < height_) out += '\n';
  }
  return out;
}

std::string Canvas::to_role_map() const {
  std::string out;
  for (int y = 0; y < height_; ++y) {
    for (int x = 0; x < width_; ++x) out += role_letter(at(x, y).role);
    if (y + 1 < height_) out += '\n';
  }
  return out;
}

}  // namespace trainyard
