#include "frame_stats.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include <fmt/format.h>

#include "core/atomic_file.hpp"

namespace trainyard {
namespace {

constexpr size_t kKept = 1 << 20;

float percentile(std::vector<float> v, double p) {
  if (v.empty()) return 0;
  auto k = static_cast<size_t>(p * static_cast<double>(v.size() - 1));
  std::nth_element(v.begin(), v.begin() + static_cast<std::ptrdiff_t>(k), v.end());
  return v[k];
}

}  // namespace

void FrameStats::add(std::chrono::steady_clock::duration d) {
  float ms = std::chrono::duration<float, std::milli>(d).count();
  ++frames_;
  max_ms_ = std::max(max_ms_, ms);
  if (ms_.size() < kKept) ms_.push_back(ms);
}

std::string FrameStats::to_json() const {
  return fmt::format(R"({{"frames": {}, "max_ms": {:.2f}, "p50_ms": {:.2f}, "p99_ms": {:.2f}}})",
                     frames_, max_ms_, percentile(ms_, 0.5), percentile(ms_, 0.99));
}

void FrameStats::write_if_asked() const {
  const char* path = std::getenv("TRAINYARD_FRAME_STATS");
  if (!path || !*path) return;
  (void)write_file_atomic(path, to_json() + "\n", 0600);
}

}  // namespace trainyard
