#include "widgets/charts.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace trainyard {
namespace {

constexpr const char* kBlocks[] = {" ", "▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"};
constexpr const char* kEighths[] = {"", "▏", "▎", "▍", "▌", "▋", "▊", "▉"};

struct Range {
  double lo = 0;
  double hi = 1;
};

// A flat or empty series still gets a usable scale.
Range widen(Range r) {
  if (!(r.hi > r.lo)) {
    double pad = r.lo == 0 ? 1 : std::fabs(r.lo) * 0.5;
    return {r.lo - pad, r.lo + pad};
  }
  return r;
}

Range data_range(const std::vector<const std::vector<double>*>& all) {
  Range r{INFINITY, -INFINITY};
  for (const auto* values : all) {
    for (double v : *values) {
      if (std::isnan(v)) continue;
      r.lo = std::min(r.lo, v);
      r.hi = std::max(r.hi, v);
    }
  }
  return std::isfinite(r.lo) ? r : Range{0, 1};
}

int level_of(double v, Range r, int levels) {
  double t = (v - r.lo) / (r.hi - r.lo);
  return std::clamp(static_cast<int>(std::lround(t * levels)), 0, levels);
}

void draw_spark_column(Canvas& canvas, int x, Rect r, int level, Role role) {
  for (int row = 0; row < r.h; ++row) {
    int rest = std::clamp(level - row * 8, 0, 8);
    // The lowest level still shows a sliver so zero values are visible.
    if (row == 0 && rest == 0) rest = 1;
    if (rest > 0) canvas.put(x, r.bottom() - 1 - row, kBlocks[rest], 1, role);
  }
}

// Dots of a braille plot; each cell is 2×4 dots.
class BrailleGrid {
 public:
  BrailleGrid(int w, int h)
      : w_(w), h_(h), bits_(static_cast<std::size_t>(w * h)), roles_(bits_.size()) {}

  void line(int x0, int y0, int x1, int y1, Role role) {
    int dx = std::abs(x1 - x0), dy = -std::abs(y1 - y0);
    int sx = x0 < x1 ? 1 : -1, sy = y0 < y1 ? 1 : -1, err = dx + dy;
    while (true) {
      dot(x0, y0, role);
      if (x0 == x1 && y0 == y1) return;
      int e2 = 2 * err;
      if (e2 >= dy) err += dy, x0 += sx;
      if (e2 <= dx) err += dx, y0 += sy;
    }
  }

  void draw(Canvas& canvas, int x0, int y0) const {
    for (int y = 0; y < h_; ++y) {
      for (int x = 0; x < w_; ++x) {
        auto i = static_cast<std::size_t>(y * w_ + x);
        if (bits_[i] == 0) continue;
        std::string g;
        append_utf8(g, 0x2800 + bits_[i]);
        canvas.put(x0 + x, y0 + y, g, 1, roles_[i]);
      }
    }
  }

 private:
  void dot(int px, int py, Role role) {
    static constexpr unsigned char kBit[4][2] = {
        {0x01, 0x08}, {0x02, 0x10}, {0x04, 0x20}, {0x40, 0x80}};
    if (px < 0 || py < 0 || px >= w_ * 2 || py >= h_ * 4) return;
    auto i = static_cast<std::size_t>((py / 4) * w_ + px / 2);
    bits_[i] = static_cast<unsigned char>(bits_[i] | kBit[py % 4][px % 2]);
    roles_[i] = role;
  }

  int w_, h_;
  std::vector<unsigned char> bits_;
  std::vector<Role> roles_;
};

int dot_x(std::size_t i, std::size_t n, int dots_w) {
  return n <= 1 ? 0 : static_cast<int>(std::lround(double(i) * (dots_w - 1) / double(n - 1)));
}

void plot_series(BrailleGrid& grid, const Series& s, Range y, int dots_w, int dots_h) {
  const auto n = s.values.size();
  bool have_prev = false;
  int px = 0, py = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double v = s.values[i];
    if (std::isnan(v)) {
      have_prev = false;
      continue;
    }
    int x = dot_x(i, n, dots_w);
    int yy = dots_h - 1 - level_of(std::clamp(v, y.lo, y.hi), y, dots_h - 1);
    grid.line(have_prev ? px : x, have_prev ? py : yy, x, yy, s.role);
    have_prev = true;
    px = x, py = yy;
  }
}

// Rules go under the lines (the braille cells drawn later cover them where they cross); their
// labels go on the x label row under the rule, up to `label_end` (where the right x label is).
void draw_markers(const LineChartVm& vm, Canvas& canvas, Rect plot, int label_end) {
  if (vm.series.empty()) return;
  const auto n = vm.series.front().values.size();
  for (const auto& m : vm.markers) {
    if (m.index >= n) continue;
    int x = plot.x + dot_x(m.index, n, plot.w * 2) / 2;
    canvas.fill({x, plot.y, 1, plot.h}, Role::ChartAxis, "┊");
    if (x < label_end)
      canvas.draw_text_truncated(x, plot.bottom(), m.label, Role::ChartAxis, label_end - x);
  }
}

void draw_title_and_legend(const LineChartVm& vm, Canvas& canvas, Rect row) {
  int x = row.x + canvas.draw_text_truncated(row.x, row.y, vm.title, Role::Title, row.w);
  for (const auto& s : vm.series) {
    if (s.name.empty()) continue;
    std::string item = "  ━ " + s.name;
    if (x + text_width(item) > row.right()) break;
    x += canvas.draw_text(x, row.y, "  ━", s.role, 3);
    x += canvas.draw_text(x, row.y, " " + s.name, Role::ChartAxis, row.right() - x);
  }
}

void draw_y_axis(Canvas& canvas, Rect plot, int label_w, Range y) {
  int ax = plot.x - 1;
  canvas.fill({ax, plot.y, 1, plot.h}, Role::ChartAxis, "│");
  canvas.put(ax, plot.y, "┤", 1, Role::ChartAxis);
  canvas.put(ax, plot.bottom() - 1, "┤", 1, Role::ChartAxis);
  canvas.draw_aligned(ax - label_w, plot.y, format_axis_value(y.hi), Role::ChartAxis, label_w,
                      Align::Right);
  canvas.draw_aligned(ax - label_w, plot.bottom() - 1, format_axis_value(y.lo), Role::ChartAxis,
                      label_w, Align::Right);
}

}  // namespace

void render_sparkline(const SparklineVm& vm, Canvas& canvas, Rect r) {
  if (r.empty() || vm.values.empty()) return;
  Range range = data_range({&vm.values});
  range = widen({vm.min.value_or(range.lo), vm.max.value_or(range.hi)});
  int n = static_cast<int>(std::min<std::size_t>(vm.values.size(), static_cast<std::size_t>(r.w)));
  std::size_t first = vm.values.size() - static_cast<std::size_t>(n);
  for (int i = 0; i < n; ++i) {
    double v = vm.values[first + static_cast<std::size_t>(i)];
    if (std::isnan(v)) continue;
    draw_spark_column(canvas, r.right() - n + i, r,
                      level_of(std::clamp(v, range.lo, range.hi), range, r.h * 8), vm.role);
  }
}

std::string format_axis_value(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.4g", v);
  return buf;
}

void render_line_chart(const LineChartVm& vm, Canvas& canvas, Rect r) {
  if (r.h < 3 || r.w < 4) return;
  draw_title_and_legend(vm, canvas, r.top(1));
  std::vector<const std::vector<double>*> all;
  for (const auto& s : vm.series) all.push_back(&s.values);
  Range data = data_range(all);
  Range y = widen({vm.y_min.value_or(data.lo), vm.y_max.value_or(data.hi)});
  int label_w = std::max(text_width(format_axis_value(y.hi)), text_width(format_axis_value(y.lo)));
  label_w = std::min(label_w, r.w / 3);
  Rect plot{r.x + label_w + 1, r.y + 1, r.w - label_w - 1, r.h - 2};
  draw_y_axis(canvas, plot, label_w, y);
  int bottom = r.bottom() - 1;
  int xr_w = std::min(text_width(vm.x_right), plot.w - text_width(vm.x_left) - 1);
  draw_markers(vm, canvas, plot, plot.right() - std::max(xr_w, 0) - 1);
  BrailleGrid grid(plot.w, plot.h);
  for (const auto& s : vm.series) plot_series(grid, s, y, plot.w * 2, plot.h * 4);
  grid.draw(canvas, plot.x, plot.y);
  canvas.draw_text_truncated(plot.x, bottom, vm.x_left, Role::ChartAxis, plot.w);
  if (xr_w > 0)
    canvas.draw_aligned(plot.right() - xr_w, bottom, vm.x_right, Role::ChartAxis, xr_w,
                        Align::Right);
}

void render_gauge(const GaugeVm& vm, Canvas& canvas, Rect r) {
  if (r.empty()) return;
  double f = std::isnan(vm.fraction) ? 0 : std::clamp(vm.fraction, 0.0, 1.0);
  int label_w = vm.label_width > 0 ? vm.label_width : text_width(vm.label);
  label_w = std::min(label_w, r.w / 3);
  std::string text = vm.text.empty() ? std::to_string(std::lround(f * 100)) + "%" : vm.text;
  int text_w = std::min(std::max(text_width(text), 4), r.w / 3);
  canvas.draw_text_truncated(r.x, r.y, vm.label, Role::Label, label_w);
  canvas.draw_aligned(r.right() - text_w, r.y, text, Role::Default, text_w, Align::Right);
  Rect bar{r.x + label_w + (label_w > 0 ? 1 : 0), r.y, 0, 1};
  bar.w = r.right() - text_w - 1 - bar.x;
  if (bar.w <= 0) return;
  Role fill = f >= vm.high ? Role::GaugeHigh : f >= vm.mid ? Role::GaugeMid : Role::GaugeLow;
  canvas.fill(bar, Role::GaugeEmpty, "·");
  auto eighths = static_cast<int>(std::lround(f * bar.w * 8));
  canvas.fill(bar.left(eighths / 8), fill, "█");
  if (eighths % 8 != 0) canvas.put(bar.x + eighths / 8, r.y, kEighths[eighths % 8], 1, fill);
}

}  // namespace trainyard
