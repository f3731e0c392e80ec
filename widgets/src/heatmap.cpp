#include "widgets/heatmap.hpp"

#include <algorithm>

namespace trainyard {
namespace {

// Squares that fit in a row of `width` columns: each takes two but the last needs no gap.
int per_row(int width) {
  return width <= 0 ? 0 : (width + 1) / 2;
}

// How many squares are drawn when `more` must fit after them in the last row.
int shown_with_overflow(int n, int capacity, int width) {
  // Drop squares from the end until `+N` (N the dropped count) fits behind the last one.
  for (int shown = capacity; shown >= 0; --shown) {
    int row_used = (shown % per_row(width)) * 2;
    if (shown > 0 && row_used == 0) row_used = per_row(width) * 2;  // the last row is full
    std::string more = "+" + std::to_string(n - shown);
    if (row_used + static_cast<int>(more.size()) <= width) return shown;
  }
  return 0;
}

}  // namespace

int render_heatmap(const HeatmapVm& vm, Canvas& canvas, Rect r) {
  int n = static_cast<int>(vm.cells.size());
  int cols = per_row(r.w);
  if (n == 0 || cols == 0 || r.h <= 0) return 0;
  int capacity = cols * r.h;
  int shown = n <= capacity ? n : shown_with_overflow(n, capacity, r.w);
  for (int i = 0; i < shown; ++i)
    canvas.put(r.x + (i % cols) * 2, r.y + i / cols, vm.glyph, 1, vm.cells[static_cast<size_t>(i)]);
  int rows = std::min(r.h, (std::max(shown, 1) + cols - 1) / cols);
  if (shown < n) {
    int last = shown == 0 ? 0 : (shown - 1) / cols;
    int x = shown == 0 ? 0 : ((shown - 1) % cols + 1) * 2;
    canvas.draw_text(r.x + x, r.y + last, "+" + std::to_string(n - shown), Role::Dim, r.w - x);
    rows = last + 1;
  }
  return rows;
}

std::string progress_bar(const ProgressVm& vm, int width) {
  if (width <= 0) return "";
  int64_t finished = std::clamp<int64_t>(vm.done + vm.failed, 0, std::max<int64_t>(vm.total, 0));
  int64_t filled = vm.total > 0 ? width * finished / vm.total : 0;
  if (finished > 0 && filled == 0) filled = 1;
  int64_t failed = 0;
  if (vm.failed > 0 && vm.total > 0)
    failed = std::min(filled, std::max<int64_t>(1, width * vm.failed / vm.total));
  std::string out;
  for (int64_t i = 0; i < width; ++i) out += i < filled - failed ? "█" : i < filled ? "×" : "░";
  return out;
}

std::string progress_percent(const ProgressVm& vm) {
  if (vm.total <= 0) return "-";
  int64_t finished = std::clamp<int64_t>(vm.done + vm.failed, 0, vm.total);
  return std::to_string(finished * 100 / vm.total) + "%";
}

}  // namespace trainyard
