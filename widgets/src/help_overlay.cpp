#include "widgets/help_overlay.hpp"

#include <algorithm>

#include "widgets/box.hpp"

namespace trainyard {
namespace {

// One line of the flowed help: a heading, a binding, or a blank spacer.
struct HelpLine {
  const HelpSection* section = nullptr;
  const HelpEntry* entry = nullptr;
};

std::vector<HelpLine> flatten(const HelpVm& vm) {
  std::vector<HelpLine> lines;
  for (const auto& s : vm.sections) {
    if (!lines.empty()) lines.push_back({});
    lines.push_back({&s, nullptr});
    for (const auto& e : s.entries) lines.push_back({&s, &e});
  }
  return lines;
}

struct ColumnWidths {
  int key = 0;
  int name = 0;  ///< 0: no entry has a name
  int total = 0;
};

ColumnWidths measure(const HelpVm& vm) {
  ColumnWidths w;
  int desc = 0;
  for (const auto& s : vm.sections) {
    desc = std::max(desc, text_width(s.context) - 1);
    for (const auto& e : s.entries) {
      w.key = std::max(w.key, text_width(e.key));
      w.name = std::max(w.name, text_width(e.name));
      desc = std::max(desc, text_width(e.description));
    }
  }
  w.key = std::min(w.key, 12);
  w.name = std::min(w.name, 17);
  w.total = w.key + 2 + (w.name > 0 ? w.name + 2 : 0) + std::min(desc, 40);
  return w;
}

void draw_line(const HelpLine& line, Canvas& canvas, int x, int y, ColumnWidths w, int max_w) {
  if (line.section == nullptr) return;
  if (line.entry == nullptr) {
    canvas.draw_text_truncated(x, y, line.section->context, Role::HelpGroup, max_w);
    return;
  }
  canvas.draw_aligned(x, y, line.entry->key, Role::KeyHint, std::min(w.key, max_w), Align::Left);
  int at = w.key + 2;
  if (w.name > 0) {
    canvas.draw_aligned(x + at, y, line.entry->name, Role::Dim, std::min(w.name, max_w - at),
                        Align::Left);
    at += w.name + 2;
  }
  canvas.draw_text_truncated(x + at, y, line.entry->description, Role::Dialog,
                             std::min(w.total, max_w) - at);
}

}  // namespace

std::size_t help_line_count(const HelpVm& vm) {
  return flatten(vm).size();
}

void render_help(const HelpVm& vm, Canvas& canvas, Rect area) {
  Rect inner = draw_box(canvas, area.inset(1), Role::BorderFocused, Role::Dialog, vm.title,
                        Role::DialogTitle);
  Rect body = inner.inset(1);
  if (body.empty()) return;
  auto lines = flatten(vm);
  ColumnWidths w = measure(vm);
  int x = body.x;
  std::size_t i = std::min(vm.first, lines.empty() ? 0 : lines.size() - 1);
  if (i > 0) canvas.put(body.right() - 1, body.y, "↑", 1, Role::Dim);
  while (i < lines.size() && x < body.right()) {
    // A column never starts with a blank spacer.
    if (lines[i].section == nullptr) ++i;
    for (int y = body.y; y < body.bottom() && i < lines.size(); ++y, ++i) {
      draw_line(lines[i], canvas, x, y, w, body.right() - x);
    }
    x += w.total + 3;
  }
  if (i < lines.size()) canvas.put(body.right() - 1, body.bottom() - 1, "…", 1, Role::Dim);
}

}  // namespace trainyard
