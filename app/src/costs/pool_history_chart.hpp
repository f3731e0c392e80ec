// Internal: the Pool pane's charts of nodes and running tasks, laid on a time axis.
#pragma once

#include <vector>

#include "store/store.hpp"
#include "widgets/charts.hpp"

namespace trainyard {

/// A gap between samples up to this many buckets is drawn as a line (the poller lists a pool
/// every 45 s in the background, so neighbours are one or two buckets apart); a longer one
/// (nobody polled) stays a gap.
inline constexpr int kPoolChartBridgedBuckets = 10;

/// The two charts of a pool's history.
struct PoolHistoryCharts {
  LineChartVm nodes;    ///< dedicated and Spot nodes
  LineChartVm running;  ///< running tasks
};

/// The charts over the window from the oldest of `samples` (oldest first) to `now`, one point
/// per kPoolSampleSeconds bucket at its own place, so samples keep their time instead of being
/// spread evenly over the width; the titles give the latest values.
PoolHistoryCharts pool_history_charts(const std::vector<PoolSample>& samples, Timestamp now);

}  // namespace trainyard
