// Sparklines, line charts and gauges.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "widgets/canvas.hpp"

namespace trainyard {

/// A sparkline of the newest values (right-aligned, one value per column, ▁▂▃▄▅▆▇█).
struct SparklineVm {
  std::vector<double> values;   ///< oldest first; NaN draws a gap
  std::optional<double> min;    ///< bottom of the scale (default: smallest value)
  std::optional<double> max;    ///< top of the scale (default: largest value)
  Role role = Role::Sparkline;  ///< bar role
};

/// Draws the sparkline over all rows of `r` (eight levels per row).
void render_sparkline(const SparklineVm& vm, Canvas& canvas, Rect r);

/// A vertical rule across the plot (where an attempt of a task began).
struct ChartMarker {
  std::size_t index = 0;  ///< the value of the first series the rule stands at
  std::string label;      ///< drawn at the top of the plot, right of the rule
};

/// One series of a line chart.
struct Series {
  std::string name;                ///< legend text
  std::vector<double> values;      ///< y values at evenly spaced x; NaN breaks the line
  Role role = Role::ChartSeries1;  ///< line role
};

/// A braille line chart: title and legend on top, y labels left, x extent below.
struct LineChartVm {
  std::string title;                 ///< chart title
  std::vector<Series> series;        ///< series drawn in order (later ones on top)
  std::optional<double> y_min;       ///< bottom of the y axis (default: data minimum)
  std::optional<double> y_max;       ///< top of the y axis (default: data maximum)
  std::string x_left;                ///< label under the left end (`0`)
  std::string x_right;               ///< label under the right end (`1200 steps`)
  std::vector<ChartMarker> markers;  ///< rules behind the lines, placed on the first series
};

/// Formats an axis value with 4 significant digits (`0.0123`, `1.5e+04`).
std::string format_axis_value(double v);
/// Draws the chart in `r` (needs at least 3 rows: title, plot, x labels).
void render_line_chart(const LineChartVm& vm, Canvas& canvas, Rect r);

/// A horizontal bar: `label ██████▍    42%`.
struct GaugeVm {
  std::string label;    ///< left label
  double fraction = 0;  ///< 0..1 (clamped)
  std::string text;     ///< right text; default the percentage
  int label_width = 0;  ///< cells for the label; 0 means its own width
  double mid = 0.6;     ///< from here the fill is GaugeMid
  double high = 0.85;   ///< from here the fill is GaugeHigh
};

/// Draws the gauge in the first row of `r`.
void render_gauge(const GaugeVm& vm, Canvas& canvas, Rect r);

}  // namespace trainyard
