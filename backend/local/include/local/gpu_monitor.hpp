// Background GPU sampling with a bounded history per GPU, for gauges and charts.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "core/result.hpp"
#include "core/time.hpp"
#include "local/gpu.hpp"

namespace trainyard {

/// The chartable part of a GpuSample.
struct GpuPoint {
  Timestamp at{};
  std::optional<unsigned> util_percent;
  std::optional<unsigned> mem_util_percent;
  std::optional<unsigned> temperature_c;
  std::optional<uint64_t> mem_used;
  std::optional<double> power_w;
};

/// Recent points of one GPU, oldest first.
struct GpuHistory {
  int index = 0;
  std::string uuid;
  std::vector<GpuPoint> points;
};

/// What the UI draws from; immutable once published.
struct GpuSnapshot {
  bool available = false;  ///< the last sample succeeded
  std::string last_error;  ///< the latest failure (open or sample); empty if none yet
  std::optional<Timestamp> last_error_at;
  std::optional<Timestamp> last_sample_at;  ///< the last successful sample
  uint64_t generation = 0;                  ///< samples attempted so far; changes on each publish
  std::vector<GpuSample> latest;            ///< from the last successful sample, by NVML index
  std::vector<GpuHistory> history;          ///< one per GPU seen (by UUID), by index
};

/// How the monitor samples.
struct GpuMonitorOptions {
  Duration interval = std::chrono::seconds(1);
  size_t history_limit = 600;    ///< points kept per GPU (10 minutes at 1 Hz)
  const Clock* clock = nullptr;  ///< stamps errors; nullptr: the system clock; must outlive us
};

/// Samples a GpuSource on its own thread and publishes snapshots. When the source could not be
/// opened the monitor still works: it reports unavailable with the open error and no thread.
class GpuMonitor {
 public:
  /// Called after each publish, on the thread that sampled (the app posts an EventQueue Wake).
  using OnSample = std::function<void()>;

  /// Takes the source, or the error that opening it gave.
  explicit GpuMonitor(Result<std::unique_ptr<GpuSource>> source, GpuMonitorOptions options = {},
                      OnSample on_sample = {});
  ~GpuMonitor();
  GpuMonitor(const GpuMonitor&) = delete;
  GpuMonitor& operator=(const GpuMonitor&) = delete;

  /// Starts the sampling thread (first sample at once); no-op when running or unavailable.
  void start();
  /// Stops and joins the thread promptly, even mid-interval. Called by the destructor.
  void stop();
  /// Takes one sample on the calling thread (tests, one-shot CLI output).
  void poll_once();
  /// The latest published state; cheap, safe from any thread.
  std::shared_ptr<const GpuSnapshot> snapshot() const;

 private:
  struct Series {
    int index = 0;
    std::string uuid;
    std::deque<GpuPoint> points;
  };

  void run(std::stop_token stop);
  void record(Result<std::vector<GpuSample>> result);
  void append_history(const GpuSample& s);
  void publish();
  void notify();

  std::unique_ptr<GpuSource> source_;
  GpuMonitorOptions options_;
  OnSample on_sample_;
  SystemClock system_clock_;

  std::mutex sample_mu_;  // serialises source_ and the working state below
  GpuSnapshot state_;     // working copy; its history is built from series_ at publish
  std::map<std::string, Series> series_;  // by UUID (or `#index` when it has none)

  mutable std::mutex publish_mu_;
  std::shared_ptr<const GpuSnapshot> published_;

  std::mutex wait_mu_;
  std::condition_variable_any wake_;
  std::jthread thread_;
};

}  // namespace trainyard
