#include "local/gpu_monitor.hpp"

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <stdexcept>

#include <gtest/gtest.h>

namespace trainyard::gpu_monitor_test {
namespace {

using namespace std::chrono_literals;

// A GpuSource whose readings and failures the test scripts.
class ScriptedSource final : public GpuSource {
 public:
  explicit ScriptedSource(int gpus) : gpus_(gpus) {}
  Result<std::vector<GpuSample>> sample() override {
    int n = ++calls_;
    if (fail_at_ == n) return make_error(ErrorKind::Io, "nvml hiccup");
    if (throw_at_ == n) throw std::runtime_error("boom");
    std::vector<GpuSample> out;
    for (int i = 0; i < gpus_; ++i) {
      GpuSample s;
      s.index = i;
      s.uuid = "GPU-" + std::to_string(i);
      s.util_percent = static_cast<unsigned>(n);
      s.at = from_micros(n * 1'000'000LL);
      out.push_back(s);
    }
    return out;
  }
  std::atomic<int> calls_{0};
  int fail_at_ = -1, throw_at_ = -1;

 private:
  int gpus_;
};

Result<std::unique_ptr<GpuSource>> scripted(int gpus, ScriptedSource** out = nullptr) {
  auto src = std::make_unique<ScriptedSource>(gpus);
  if (out) *out = src.get();
  return std::unique_ptr<GpuSource>(std::move(src));
}

TEST(GpuMonitor, HistoryIsBounded) {
  GpuMonitor monitor(scripted(2), {.history_limit = 5});
  for (int i = 0; i < 12; ++i) monitor.poll_once();
  auto snap = monitor.snapshot();
  EXPECT_TRUE(snap->available);
  EXPECT_EQ(snap->generation, 12u);
  ASSERT_EQ(snap->latest.size(), 2u);
  EXPECT_EQ(snap->latest[1].util_percent, 12u);
  ASSERT_EQ(snap->history.size(), 2u);
  EXPECT_EQ(snap->history[0].uuid, "GPU-0");
  ASSERT_EQ(snap->history[1].points.size(), 5u);
  EXPECT_EQ(snap->history[1].points.front().util_percent, 8u);
  EXPECT_EQ(snap->history[1].points.back().util_percent, 12u);
  EXPECT_EQ(snap->last_sample_at, from_micros(12'000'000));
}

TEST(GpuMonitor, SnapshotsAreImmutable) {
  GpuMonitor monitor(scripted(1));
  monitor.poll_once();
  auto first = monitor.snapshot();
  monitor.poll_once();
  EXPECT_EQ(first->generation, 1u);
  EXPECT_EQ(first->history[0].points.size(), 1u);
  EXPECT_EQ(monitor.snapshot()->history[0].points.size(), 2u);
}

TEST(GpuMonitor, FailureKeepsLastReadings) {
  ScriptedSource* src = nullptr;
  ManualClock clock(from_micros(42'000'000));
  GpuMonitor monitor(scripted(1, &src), {.clock = &clock});
  src->fail_at_ = 2;
  src->throw_at_ = 3;
  monitor.poll_once();
  monitor.poll_once();
  auto snap = monitor.snapshot();
  EXPECT_FALSE(snap->available);
  EXPECT_EQ(snap->last_error, "nvml hiccup");
  EXPECT_EQ(snap->last_error_at, clock.now());
  ASSERT_EQ(snap->latest.size(), 1u);
  EXPECT_EQ(snap->latest[0].util_percent, 1u);
  monitor.poll_once();
  EXPECT_EQ(monitor.snapshot()->last_error, "GPU sampling failed: boom");
  monitor.poll_once();
  snap = monitor.snapshot();
  EXPECT_TRUE(snap->available);
  EXPECT_EQ(snap->history[0].points.size(), 2u);
}

TEST(GpuMonitor, UnavailableSourceNeverStartsAThread) {
  GpuMonitor monitor(make_error(ErrorKind::NotFound, "NVML not available: nope"));
  monitor.start();
  monitor.poll_once();
  auto snap = monitor.snapshot();
  EXPECT_FALSE(snap->available);
  EXPECT_EQ(snap->last_error, "NVML not available: nope");
  EXPECT_TRUE(snap->last_error_at.has_value());
  EXPECT_EQ(snap->generation, 0u);
}

TEST(GpuMonitor, ThreadSamplesAndWakesUntilStopped) {
  std::mutex mu;
  std::condition_variable cv;
  int wakes = 0;
  GpuMonitor monitor(scripted(1), {.interval = 1ms}, [&] {
    std::lock_guard lock(mu);
    ++wakes;
    cv.notify_all();
  });
  monitor.start();
  monitor.start();  // a second start is a no-op
  {
    std::unique_lock lock(mu);
    ASSERT_TRUE(cv.wait_for(lock, 30s, [&] { return wakes >= 5; }));
  }
  // Readers on another thread while sampling goes on (meaningful under TSan).
  for (int i = 0; i < 200; ++i) EXPECT_LE(monitor.snapshot()->history[0].points.size(), 600u);
  monitor.stop();
  uint64_t generation = monitor.snapshot()->generation;
  EXPECT_GE(generation, 5u);
  std::this_thread::sleep_for(5ms);
  EXPECT_EQ(monitor.snapshot()->generation, generation);
}

TEST(GpuMonitor, StopDoesNotWaitForTheInterval) {
  std::atomic<int> wakes{0};
  auto started = std::chrono::steady_clock::now();
  {
    GpuMonitor monitor(scripted(1), {.interval = 1h}, [&] { ++wakes; });
    monitor.start();
    while (wakes.load() == 0) std::this_thread::sleep_for(1ms);
  }  // the destructor stops the thread
  EXPECT_LT(std::chrono::steady_clock::now() - started, 60s);
  EXPECT_EQ(wakes.load(), 1);
}

TEST(GpuMonitor, ThrowingCallbackDoesNotStopSampling) {
  ScriptedSource* src = nullptr;
  GpuMonitor monitor(scripted(1, &src), {.interval = 1ms},
                     [] { throw std::runtime_error("callback"); });
  monitor.start();
  while (src->calls_.load() < 3) std::this_thread::sleep_for(1ms);
  monitor.stop();
  EXPECT_TRUE(monitor.snapshot()->available);
}

}  // namespace
}  // namespace trainyard::gpu_monitor_test
