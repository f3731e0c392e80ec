#include "local_worker.hpp"

#include <exception>

#include <fmt/format.h>

#include "gpu_probe.hpp"

namespace trainyard {
namespace {

constexpr std::chrono::seconds kPassInterval{2};

// No exception may cross into the UI thread, nor end this one.
template <typename F>
auto guarded(F&& f) -> decltype(f()) {
  try {
    return f();
  } catch (const std::exception& e) {
    return make_error(ErrorKind::Internal, e.what());
  } catch (...) {
    return make_error(ErrorKind::Internal, "unknown exception");
  }
}

}  // namespace

LocalWorker::LocalWorker(std::string data_dir, EngineConfig config, const Clock& clock,
                         std::function<void(Event)> post)
    : data_dir_(std::move(data_dir)),
      config_(std::move(config)),
      clock_(clock),
      post_(std::move(post)),
      thread_([this] { run(); }) {}

LocalWorker::~LocalWorker() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  thread_.join();
}

void LocalWorker::submit(Action action, Reply reply) {
  {
    std::lock_guard<std::mutex> g(mu_);
    queue_.push_back({std::move(action), std::move(reply)});
  }
  cv_.notify_all();
}

void LocalWorker::poke() {
  {
    std::lock_guard<std::mutex> g(mu_);
    poked_ = true;
  }
  cv_.notify_all();
}

void LocalWorker::submit_read(std::function<Result<std::string>(Store&)> read, Reply reply) {
  // The action runs on this thread once the engine (and so store_) is open.
  submit([this, read = std::move(read)](LocalEngine&) { return read(*store_); }, std::move(reply));
}

size_t LocalWorker::run_replies() {
  std::vector<std::pair<Reply, Result<std::string>>> done;
  {
    std::lock_guard<std::mutex> g(mu_);
    done.swap(done_);
  }
  for (auto& [reply, result] : done)
    if (reply) reply(result);
  return done.size();
}

void LocalWorker::settle() {
  {
    // A pass asked for (the first one included) or under way counts as work in flight: what
    // it writes (the local pool and node, a started run) is part of what settles.
    std::unique_lock<std::mutex> g(mu_);
    cv_.wait(g, [&] { return queue_.empty() && running_ == 0 && !poked_ && !passing_; });
  }
  run_replies();
}

// Actions first; a pass when one is due or asked for. False when the worker is stopping.
bool LocalWorker::next_job(Job& job) {
  std::unique_lock<std::mutex> g(mu_);
  cv_.wait_until(g, next_pass_, [&] { return stopping_ || poked_ || !queue_.empty(); });
  if (stopping_) return false;
  if (!queue_.empty()) {
    job = std::move(queue_.front());
    queue_.pop_front();
    ++running_;
    return true;
  }
  poked_ = false;
  passing_ = true;
  job = Job{};
  return true;
}

void LocalWorker::run() {
  for (Job job; next_job(job);) {
    if (job.action) {
      execute(job);
      continue;
    }
    schedule_pass();
    next_pass_ = std::chrono::steady_clock::now() + kPassInterval;
    {
      std::lock_guard<std::mutex> g(mu_);
      passing_ = false;
    }
    cv_.notify_all();
  }
}

Result<void> LocalWorker::open_engine() {
  if (engine_) return ok_result();
  auto s = Store::open(data_dir_ + "/cache.db");
  if (!s) return s.error();
  store_ = std::move(*s);
  // The UI's probe reads the UI thread's connection; this thread reads its own.
  if (config_.gpu_probe) config_.gpu_probe = make_gpu_probe(*store_);
  engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  return ok_result();
}

void LocalWorker::execute(Job& job) {
  auto r = guarded([&]() -> Result<std::string> {
    if (auto o = open_engine(); !o) return o.error();
    return job.action(*engine_);
  });
  {
    std::lock_guard<std::mutex> g(mu_);
    done_.emplace_back(std::move(job.reply), std::move(r));
    --running_;
  }
  cv_.notify_all();
  post_(Wake{});
}

// Any open UI keeps the local queue moving and repairs lost supervisors. A failure is reported
// once, not every 2 s while it lasts.
void LocalWorker::schedule_pass() {
  auto r = guarded([&]() -> Result<int> {
    if (auto o = open_engine(); !o) return o.error();
    auto started = engine_->schedule();
    engine_->reap_children();
    return started;
  });
  std::string error = r ? "" : "local runs: " + r.error().message;
  if (!error.empty() && error != last_error_) post_(StatusMessage{error, true, "local engine"});
  last_error_ = error;
  if (r && *r > 0) post_(Wake{});
}

}  // namespace trainyard
