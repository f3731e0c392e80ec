// A heatmap of items as coloured squares (a pool's nodes by state) and a text progress bar.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "widgets/canvas.hpp"

namespace trainyard {

/// One square per item, coloured by its role, in order.
struct HeatmapVm {
  std::vector<Role> cells;  ///< one per item
  std::string glyph = "■";  ///< what each item draws (one cell wide)
};

/// Draws the items left to right, two columns each (square, gap), wrapping over the rows of
/// `r`; when they do not all fit, the last row ends in `+N` (the items left out). Returns the
/// rows drawn (0 for no item).
int render_heatmap(const HeatmapVm& vm, Canvas& canvas, Rect r);

/// What a progress bar shows: `done` and `failed` of `total` (failed is not part of done).
struct ProgressVm {
  int64_t done = 0;
  int64_t failed = 0;
  int64_t total = 0;
};

/// `████××░░░░`: `width` cells, the finished share filled (rounded down, but never to no cell
/// when something finished), its failed part as `×` (never to no cell when something failed),
/// the rest `░`.
std::string progress_bar(const ProgressVm& vm, int width);

/// `70%`: the finished share (done and failed) of the total, rounded down; `-` for no total.
std::string progress_percent(const ProgressVm& vm);

}  // namespace trainyard
