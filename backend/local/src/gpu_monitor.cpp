#include "local/gpu_monitor.hpp"

#include <algorithm>
#include <exception>

namespace trainyard {
namespace {

// No exception may cross the sampling thread, so a throwing source becomes an Error.
Result<std::vector<GpuSample>> sample_safely(GpuSource& source) {
  try {
    return source.sample();
  } catch (const std::exception& e) {
    return make_error(ErrorKind::Internal, std::string("GPU sampling failed: ") + e.what());
  } catch (...) {
    return make_error(ErrorKind::Internal, "GPU sampling failed");
  }
}

GpuPoint to_point(const GpuSample& s) {
  return GpuPoint{s.at, s.util_percent, s.mem_util_percent, s.temperature_c, s.mem_used, s.power_w};
}

std::string series_key(const GpuSample& s) {
  return s.uuid.empty() ? "#" + std::to_string(s.index) : s.uuid;
}

}  // namespace

GpuMonitor::GpuMonitor(Result<std::unique_ptr<GpuSource>> source, GpuMonitorOptions options,
                       OnSample on_sample)
    : options_(options), on_sample_(std::move(on_sample)) {
  if (!options_.clock) options_.clock = &system_clock_;
  options_.history_limit = std::max<size_t>(options_.history_limit, 1);
  if (source) {
    source_ = std::move(source).value();
  } else {
    state_.last_error = source.error().message;
    state_.last_error_at = options_.clock->now();
  }
  publish();
}

GpuMonitor::~GpuMonitor() {
  stop();
}

void GpuMonitor::start() {
  if (!source_ || thread_.joinable()) return;
  thread_ = std::jthread([this](std::stop_token stop) { run(std::move(stop)); });
}

void GpuMonitor::stop() {
  if (!thread_.joinable()) return;
  thread_.request_stop();  // wakes the interval wait through its stop_token
  thread_.join();
}

void GpuMonitor::run(std::stop_token stop) {
  while (!stop.stop_requested()) {
    poll_once();
    std::unique_lock lock(wait_mu_);
    wake_.wait_for(lock, stop, options_.interval, [] { return false; });
  }
}

void GpuMonitor::poll_once() {
  {
    std::lock_guard lock(sample_mu_);
    if (!source_) return;
    record(sample_safely(*source_));
    publish();
  }
  notify();  // outside the lock, so the callback may call snapshot() or poll again
}

void GpuMonitor::record(Result<std::vector<GpuSample>> result) {
  ++state_.generation;
  if (!result) {
    state_.available = false;
    state_.last_error = result.error().message;
    state_.last_error_at = options_.clock->now();
    return;
  }
  state_.available = true;
  state_.latest = std::move(result).value();
  state_.last_sample_at = state_.latest.empty() ? options_.clock->now() : state_.latest.front().at;
  for (const GpuSample& s : state_.latest) append_history(s);
}

void GpuMonitor::append_history(const GpuSample& s) {
  Series& series = series_[series_key(s)];
  series.index = s.index;
  series.uuid = s.uuid;
  // A GPU that could not be read still gets a point, so charts show the gap.
  series.points.push_back(to_point(s));
  while (series.points.size() > options_.history_limit) series.points.pop_front();
}

void GpuMonitor::publish() {
  auto snap = std::make_shared<GpuSnapshot>(state_);
  for (const auto& [key, series] : series_) {
    snap->history.push_back(
        GpuHistory{series.index, series.uuid, {series.points.begin(), series.points.end()}});
  }
  std::stable_sort(snap->history.begin(), snap->history.end(),
                   [](const GpuHistory& a, const GpuHistory& b) { return a.index < b.index; });
  std::lock_guard lock(publish_mu_);
  published_ = std::move(snap);
}

void GpuMonitor::notify() {
  if (!on_sample_) return;
  try {
    on_sample_();
  } catch (...) {
    // The callback only wakes the UI; a failure there must not kill sampling.
  }
}

std::shared_ptr<const GpuSnapshot> GpuMonitor::snapshot() const {
  std::lock_guard lock(publish_mu_);
  return published_;
}

}  // namespace trainyard
