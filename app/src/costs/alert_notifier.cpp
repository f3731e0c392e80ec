#include "alert_notifier.hpp"

#include <algorithm>
#include <chrono>

#include <fmt/format.h>

#include "core/child_process.hpp"

namespace trainyard {
namespace {

bool asks_for(const AlertSettings& s, AlertKind kind) {
  return std::find(s.on.begin(), s.on.end(), kind) != s.on.end();
}

}  // namespace

std::vector<std::string> alert_environment(std::vector<std::string> base, const Alert& a) {
  const std::pair<const char*, std::string> facts[] = {{"TRAINYARD_ALERT", a.text},
                                                       {"EVENT", alert_name(a.kind)},
                                                       {"ACCOUNT", a.account},
                                                       {"JOB", a.job},
                                                       {"TASK", a.task},
                                                       {"POOL", a.pool}};
  for (const auto& fact : facts) {
    // clang 14 cannot capture a structured binding, so the prefix is made first.
    const std::string prefix = std::string(fact.first) + "=";
    std::erase_if(base, [&prefix](const std::string& e) { return e.starts_with(prefix); });
    base.push_back(prefix + fact.second);
  }
  return base;
}

Result<void> run_alert_command(const std::string& command, const std::vector<std::string>& env,
                               int timeout_seconds) {
  CapturedRun run;
  run.argv = {"/bin/sh", "-c", command};
  run.env = env;
  run.output_cap = 0;  // what it prints is not shown anywhere
  run.deadline = std::chrono::steady_clock::now() + std::chrono::seconds(timeout_seconds);
  auto r = run_captured(run);
  if (!r) return make_error(ErrorKind::Io, "alert command: cannot start it");
  if (r->timed_out)
    return make_error(ErrorKind::Io,
                      fmt::format("alert command killed after {} s", timeout_seconds));
  if (r->exit_status == 0) return {};
  if (r->signal != 0) return make_error(ErrorKind::Io, "alert command was killed");
  return make_error(ErrorKind::Io, fmt::format("alert command exited with {}", r->exit_status));
}

AlertNotifier::AlertNotifier(AlertConfig config, std::vector<std::string> env,
                             std::function<void()> bell, std::function<void(std::string)> failed)
    : config_(std::move(config)),
      env_(std::move(env)),
      bell_(std::move(bell)),
      failed_(std::move(failed)),
      thread_([this] { run(); }) {}

AlertNotifier::~AlertNotifier() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  thread_.join();
}

void AlertNotifier::notify(const std::vector<Alert>& alerts) {
  bool ring = false;
  {
    std::lock_guard<std::mutex> g(mu_);
    for (const auto& a : alerts) {
      auto it = config_.find(a.account);
      // Budget warnings reach the status line always; the bell and the command only the
      // events the account's `on` names.
      if (it == config_.end() || !asks_for(it->second, a.kind)) continue;
      ring = ring || it->second.bell;
      if (!it->second.command.empty())
        queue_.push_back(
            {it->second.command, alert_environment(env_, a), it->second.timeout_seconds});
    }
  }
  if (ring && bell_) bell_();
  cv_.notify_all();
}

void AlertNotifier::settle() {
  std::unique_lock<std::mutex> lock(mu_);
  cv_.wait(lock, [&] { return queue_.empty() && !busy_; });
}

void AlertNotifier::run() {
  std::unique_lock<std::mutex> lock(mu_);
  while (true) {
    cv_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    if (stopping_) return;
    Job job = std::move(queue_.front());
    queue_.pop_front();
    busy_ = true;
    lock.unlock();
    auto r = run_alert_command(job.command, job.env, job.timeout_seconds);
    if (!r && failed_) failed_(r.error().message);
    lock.lock();
    busy_ = false;
    cv_.notify_all();
  }
}

}  // namespace trainyard
