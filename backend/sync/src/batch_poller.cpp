#include "sync/batch_poller.hpp"

#include "batch_poller_worker.hpp"

namespace trainyard {

using Steady = std::chrono::steady_clock;
using std::chrono::milliseconds;

BatchPoller::BatchPoller(std::string account, std::string data_dir, std::string lock_dir,
                         BatchClientFactory make_client, PollerOptions options,
                         std::function<void(std::vector<std::string>)> on_change)
    : account_(std::move(account)),
      data_dir_(std::move(data_dir)),
      lock_dir_(std::move(lock_dir)),
      make_client_(std::move(make_client)),
      options_(options),
      on_change_(std::move(on_change)) {}

BatchPoller::~BatchPoller() {
  stop();
}

void BatchPoller::start() {
  std::lock_guard<std::mutex> g(mu_);
  if (thread_.joinable()) return;
  stopping_ = false;
  thread_ = std::thread([this] { run(); });
}

void BatchPoller::stop() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
    // Quitting must not wait for a request in flight (30 s timeout, retries, Retry-After).
    if (client_in_use_) client_in_use_->cancel();
  }
  cv_.notify_all();
  if (thread_.joinable()) thread_.join();
}

void BatchPoller::set_focus(PollFocus focus) {
  {
    std::lock_guard<std::mutex> g(mu_);
    if (focus == focus_) return;
    focus_ = std::move(focus);
    focus_changed_ = true;
  }
  cv_.notify_all();
}

void BatchPoller::poke() {
  {
    std::lock_guard<std::mutex> g(mu_);
    focus_changed_ = true;
  }
  cv_.notify_all();
}

PollerStatus BatchPoller::status() const {
  std::lock_guard<std::mutex> g(mu_);
  PollerStatus s = status_;
  if (client_in_use_) {
    s.waiting_since = client_in_use_->in_flight_since();
    s.endpoint = client_in_use_->options().endpoint;
  }
  return s;
}

// True when stopping; returns early when the focus changes.
bool BatchPoller::wait_until(Steady::time_point t) {
  std::unique_lock<std::mutex> g(mu_);
  cv_.wait_until(g, t, [&] { return stopping_ || focus_changed_; });
  return stopping_;
}

void BatchPoller::run() {
  Worker w(*this);
  std::chrono::milliseconds backoff{0};
  for (;;) {
    PollFocus focus;
    {
      std::lock_guard<std::mutex> g(mu_);
      if (stopping_) return;
      focus = focus_;
      focus_changed_ = false;
    }
    auto opened = w.open();
    bool polling = opened && w.lock.try_acquire();
    auto cycle_start = Steady::now();
    w.error = opened ? "" : opened.error().message;
    w.written.clear();
    if (opened && !polling) w.tell_what_is_shown(focus);
    if (polling) {
      w.refresh_focus(focus);
      w.queue_background(focus);
      // Background work fills the rest of the interval, yielding to a change of focus.
      auto until = cycle_start + options_.focus_interval;
      while (!w.queue.empty() && Steady::now() < until) {
        {
          std::lock_guard<std::mutex> g(mu_);
          if (stopping_ || focus_changed_) break;
        }
        auto item = w.queue.front();
        w.queue.pop_front();
        w.work(item);
      }
    }
    bool throttled_now = false;
    {
      std::lock_guard<std::mutex> g(mu_);
      status_.polling = polling;
      status_.holder_pid = polling ? 0 : w.lock.holder_pid();
      status_.last_error = w.error;
      if (w.client) {
        const auto& s = w.client->stats();
        throttled_now = s.throttled > status_.throttled;
        status_.requests = s.requests;
        status_.retries = s.retries;
        status_.throttled = s.throttled;
        status_.bytes = s.bytes;
      }
      if (polling && w.error.empty()) status_.last_cycle = w.clock.now();
      if (polling) ++status_.cycles;
      // 429, 503 and failures slow this poller down (never the UI); a clean cycle speeds it up.
      if (throttled_now || !w.error.empty())
        backoff = std::min(options_.max_backoff, std::max(milliseconds(2000), backoff * 2));
      else
        backoff /= 2;
      status_.backoff = backoff;
    }
    if (!w.written.empty() && on_change_) on_change_({w.written.begin(), w.written.end()});
    auto pause = polling || !opened ? options_.focus_interval : options_.lock_retry;
    if (wait_until(cycle_start + pause + backoff)) return;
  }
}

}  // namespace trainyard
