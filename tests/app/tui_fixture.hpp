// A deterministic data directory for TUI tests: accounts, jobs, tasks, metrics and a hostile log.
//
// Ages shown by the TUI ("2h", "40d") are read from the context's clock, which the screen tests
// fix at kFixtureNow: the fixture stores creation and start times as offsets from that clock's
// now, and completed tasks at fixed instants, so every frame is the same on every run.
#pragma once

#include <memory>
#include <string>

#include "app/context.hpp"
#include "core/time.hpp"

namespace trainyard::apptest {

/// The NVML library the fixture points TRAINYARD_NVML_LIB at: a path that never exists.
inline constexpr const char* kMissingNvml = "/nonexistent/trainyard-test/libnvidia-ml.so.1";

/// The instant the screen tests' clock reads until a test moves it.
inline constexpr Timestamp kFixtureNow{std::chrono::sys_days{std::chrono::year{2024} / 3 / 1} +
                                       std::chrono::hours{14}};

/// A temporary data directory with seeded store contents; removed on destruction.
class TuiFixture {
 public:
  /// Creates the directory, opens its store with `clock` (which must outlive the fixture) and
  /// seeds it relative to the clock's now.
  explicit TuiFixture(const Clock& clock);
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
