// Internal: how long the TUI's frames take (wake-up to drawn), for the fault soak benchmark.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

namespace trainyard {

/// Durations of handled frames; written as JSON when TRAINYARD_FRAME_STATS names a file.
class FrameStats {
 public:
  /// Records one frame.
  void add(std::chrono::steady_clock::duration d);
  /// `{"frames": N, "max_ms": …, "p50_ms": …, "p99_ms": …}`.
  std::string to_json() const;
  /// Writes to_json() to $TRAINYARD_FRAME_STATS, when set (atomically, as the run ends).
  void write_if_asked() const;

 private:
  std::vector<float> ms_;  // capped: a week at one frame a second stays far below the cap
  uint64_t frames_ = 0;
  float max_ms_ = 0;
};

}  // namespace trainyard
