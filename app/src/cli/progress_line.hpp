// Internal: a one-line progress bar on stderr for transfers, drawn only on a terminal.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>

namespace trainyard {

/// `name  [#####.....]  42%  420.0 MiB / 1.0 GiB  96.3 MiB/s`, redrawn at most ten times a
/// second with `\r`, and cleared by `done`. Silent when stderr is not a terminal.
class ProgressLine {
 public:
  explicit ProgressLine(std::string name);
  ~ProgressLine() { done(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  void update(uint64_t done_bytes, uint64_t total_bytes);
  /// Erases the line.
  void done();

 private:
  std::string name_;
  bool shown_ = false, tty_ = false;
  std::chrono::steady_clock::time_point start_, last_;
};

/// The text of the bar (what `update` draws), for tests: `width` columns of `#`/`.`.
std::string progress_text(const std::string& name, uint64_t done, uint64_t total, double seconds,
                          int width = 20);

}  // namespace trainyard
