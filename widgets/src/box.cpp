#include "widgets/box.hpp"

namespace trainyard {
namespace {

void draw_edges(Canvas& canvas, Rect r, Role border) {
  canvas.fill({r.x + 1, r.y, r.w - 2, 1}, border, "─");
  canvas.fill({r.x + 1, r.bottom() - 1, r.w - 2, 1}, border, "─");
  canvas.fill({r.x, r.y + 1, 1, r.h - 2}, border, "│");
  canvas.fill({r.right() - 1, r.y + 1, 1, r.h - 2}, border, "│");
  canvas.put(r.x, r.y, "┌", 1, border);
  canvas.put(r.right() - 1, r.y, "┐", 1, border);
  canvas.put(r.x, r.bottom() - 1, "└", 1, border);
  canvas.put(r.right() - 1, r.bottom() - 1, "┘", 1, border);
}

}  // namespace

Rect draw_box(Canvas& canvas, Rect r, Role border, Role fill, std::string_view title,
              Role title_role) {
  if (r.w < 2 || r.h < 2) return {r.x, r.y, 0, 0};
  Rect inner = r.inset(1);
  canvas.fill(inner, fill);
  draw_edges(canvas, r, border);
  if (!title.empty() && r.w > 4) {
    canvas.draw_text_truncated(r.x + 1, r.y, " " + std::string(title) + " ", title_role, r.w - 2);
  }
  return inner;
}

Rect draw_pane(Canvas& canvas, Rect r, std::string_view title, bool focused,
               std::string_view right_note) {
  Role border = focused ? Role::BorderFocused : Role::Border;
  Role title_role = focused ? Role::PaneTitleFocused : Role::PaneTitleUnfocused;
  Rect inner = draw_box(canvas, r, border, Role::Default, {}, title_role);
  if (r.w <= 4) return inner;
  int note_w = right_note.empty() ? 0 : text_width(right_note) + 2;
  if (note_w > 0 && note_w <= r.w - 4) {
    canvas.draw_text(r.right() - 1 - note_w, r.y, " " + std::string(right_note) + " ", border,
                     note_w);
  }
  int title_space = r.w - 2 - (note_w > 0 && note_w <= r.w - 4 ? note_w + 1 : 0);
  if (!title.empty()) {
    canvas.draw_text_truncated(r.x + 1, r.y, " " + std::string(title) + " ", title_role,
                               title_space);
  }
  return inner;
}

}  // namespace trainyard
