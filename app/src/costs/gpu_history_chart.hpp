// Internal: the GPU pane's utilisation chart, laid on a fixed time axis.
#pragma once

#include "local/gpu_monitor.hpp"
#include "widgets/charts.hpp"

namespace trainyard {

/// The chart's window: the ten minutes before the newest sample, one column slot per second.
inline constexpr int kGpuChartSeconds = 600;

/// One series per GPU over the window ending at `newest`: each point sits at its own second, so
/// the seconds nobody sampled (before the TUI started, a gap in sampling) stay empty instead of
/// the samples there are being stretched over the whole width.
LineChartVm gpu_history_chart(const std::vector<GpuHistory>& history, Timestamp newest);

}  // namespace trainyard
