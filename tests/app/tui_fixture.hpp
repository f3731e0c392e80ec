// A deterministic data directory for TUI tests: accounts, jobs, tasks, metrics and a hostile log.
//
// Ages shown by the TUI ("2h", "40d") are computed from the wall clock, so the fixture stores
// creation and start times relative to `now` with a wide margin from the next unit boundary;
// fixed absolute times are used only where the TUI shows differences of them or the times
// themselves (completed tasks, the detail pane).
#pragma once

#include <memory>
#include <string>

#include "app/context.hpp"
#include "core/time.hpp"

namespace trainyard::apptest {

/// The NVML library the fixture points TRAINYARD_NVML_LIB at: a path that never exists.
inline constexpr const char* kMissingNvml = "/nonexistent/trainyard-test/libnvidia-ml.so.1";

/// A temporary data directory with seeded store contents; removed on destruction.
class TuiFixture {
 public:
  /// Creates the directory, opens its store and seeds it relative to `now`.
  explicit TuiFixture(Timestamp now);
  ~TuiFixture();
  TuiFixture(const TuiFixture&) = delete;
  TuiFixture& operator=(const TuiFixture&) = delete;

  /// The opened context (one CPU slot, no GPU probe, a supervisor binary that cannot start).
  AppContext& ctx() { return *ctx_; }
  /// The data directory.
  const std::string& dir() const { return dir_; }

 private:
  void seed(Timestamp now);

  std::string dir_;
  std::unique_ptr<AppContext> ctx_;
};

}  // namespace trainyard::apptest
