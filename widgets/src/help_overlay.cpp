#include "widgets/help_overlay.hpp"

#include <algorithm>

#include "widgets/box.hpp"
#include "widgets/text.hpp"

namespace trainyard {
namespace {

// One line of the flowed help: a heading, a piece of a binding's description (the first one
// with its key and name), or a blank spacer.
struct HelpLine {
  const HelpSection* section = nullptr;
  const HelpEntry* entry = nullptr;
  std::string text;   ///< the description's piece on this line
  bool first = true;  ///< the binding's first line (its key and name are drawn)
};

struct ColumnWidths {
  int key = 0;
  int name = 0;  ///< 0: no entry has a name
  int desc = 0;  ///< descriptions wrap at this width
  int total = 0;
};

// A column as wide as the widest binding allows (descriptions up to 40 cells); when one column
// is all that fits, its descriptions take what is left of the width and wrap.
ColumnWidths measure(const HelpVm& vm, int width) {
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
  int fixed = w.key + 2 + (w.name > 0 ? w.name + 2 : 0);
  // A narrow screen keeps the descriptions, not the action names (what `keys` in config.json
  // rebinds; the full help at a wider size shows them).
  if (w.name > 0 && width - fixed < 20) {
    w.name = 0;
    fixed = w.key + 2;
  }
  w.desc = std::max(8, std::min({desc, 40, width - fixed}));
  w.total = fixed + w.desc;
  return w;
}

std::vector<HelpLine> flatten(const HelpVm& vm, const ColumnWidths& w) {
  std::vector<HelpLine> lines;
  for (const auto& s : vm.sections) {
    if (!lines.empty()) lines.push_back({});
    lines.push_back({&s, nullptr, "", true});
    for (const auto& e : s.entries) {
      auto pieces = wrap_words(e.description, w.desc);
      if (pieces.empty()) pieces.emplace_back();
      for (size_t i = 0; i < pieces.size(); ++i) lines.push_back({&s, &e, pieces[i], i == 0});
    }
  }
  return lines;
}

void draw_line(const HelpLine& line, Canvas& canvas, int x, int y, ColumnWidths w, int max_w) {
  if (line.section == nullptr) return;
  if (line.entry == nullptr) {
    canvas.draw_text_truncated(x, y, line.section->context, Role::HelpGroup, max_w);
    return;
  }
  if (line.first)
    canvas.draw_aligned(x, y, line.entry->key, Role::KeyHint, std::min(w.key, max_w), Align::Left);
  int at = w.key + 2;
  if (w.name > 0) {
    if (line.first)
      canvas.draw_aligned(x + at, y, line.entry->name, Role::Dim, std::min(w.name, max_w - at),
                          Align::Left);
    at += w.name + 2;
  }
  canvas.draw_text_truncated(x + at, y, line.text, Role::Dialog, std::min(w.total, max_w) - at);
}

// Whole columns only (a column every total + 3 cells): a cut column would show keys without
// their descriptions. One at the least, its descriptions already narrowed to the width.
int columns_that_fit(Rect body, const ColumnWidths& w) {
  return std::max(1, (body.w + 3) / (w.total + 3));
}

Rect help_body(Rect area) {
  return area.inset(1).inset(1).inset(1);
}

}  // namespace

HelpLayout help_layout(const HelpVm& vm, Rect area) {
  Rect body = help_body(area);
  if (body.empty()) return {};
  ColumnWidths w = measure(vm, body.w);
  return {flatten(vm, w).size(), static_cast<std::size_t>(columns_that_fit(body, w) * body.h)};
}

void render_help(const HelpVm& vm, Canvas& canvas, Rect area) {
  Rect inner = draw_box(canvas, area.inset(1), Role::BorderFocused, Role::Dialog, vm.title,
                        Role::DialogTitle);
  Rect body = inner.inset(1);
  if (body.empty()) return;
  ColumnWidths w = measure(vm, body.w);
  auto lines = flatten(vm, w);
  int x = body.x;
  std::size_t i = std::min(vm.first, lines.empty() ? 0 : lines.size() - 1);
  if (i > 0) canvas.put(body.right() - 1, body.y, "↑", 1, Role::Dim);
  for (int column = columns_that_fit(body, w); i < lines.size() && column > 0; --column) {
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
