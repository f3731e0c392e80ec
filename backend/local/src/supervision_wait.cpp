// Waiting for an attempt: signals, the wall-clock limit and stop escalation.
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fmt/format.h>

#include "supervision.hpp"

namespace trainyard {
namespace {

using SteadyClock = std::chrono::steady_clock;
using std::chrono::milliseconds;

}  // namespace

int wait_signal(milliseconds ms) {
  sigset_t set;
  sigemptyset(&set);
  for (int sig : {SIGTERM, SIGINT, SIGCHLD}) sigaddset(&set, sig);
  timespec ts{static_cast<time_t>(ms.count() / 1000),
              static_cast<long>((ms.count() % 1000) * 1000000)};
  int sig = sigtimedwait(&set, nullptr, &ts);
  return sig > 0 ? sig : 0;
}

namespace {

// Reaps children; returns the status of `pid` once it has exited.
std::optional<ExitStatus> reap_until(pid_t pid) {
  std::optional<ExitStatus> out;
  int status = 0;
  for (pid_t p; (p = waitpid(-1, &status, WNOHANG)) > 0;) {
    if (p == pid) out = decode_wait_status(status);
  }
  return out;
}

}  // namespace

void Supervision::signal_all(pid_t pgid, int sig) {
  if (pgid > 1) (void)signal_group(pgid, sig);
  for (const auto& g : instance_groups_) (void)signal_group(g.pgid, sig);
}

void Supervision::start_kill_timer(pid_t pgid) {
  signal_all(pgid, SIGTERM);
  if (!kill_deadline_)
    kill_deadline_ = SteadyClock::now() + std::chrono::seconds(run_.grace_seconds);
}

bool Supervision::handle_signal(int sig, pid_t pgid) {
  if (sig != SIGTERM && sig != SIGINT) return false;
  auto stop = stop_requested();
  (void)stop;  // A bare SIGTERM (e.g. system shutdown) is a stop too.
  stopping_ = true;
  log(instance_groups_.empty() ? "stop requested: SIGTERM to the task's process group"
                               : "stop requested: SIGTERM to the task's and its instances' groups");
  start_kill_timer(pgid);
  return true;
}

void Supervision::check_deadlines(pid_t pgid) {
  auto now = SteadyClock::now();
  if (wall_deadline_ && now >= *wall_deadline_ && !timed_out_ && !stopping_) {
    timed_out_ = true;
    log("maxWallClockTime reached: SIGTERM to the task's process group");
    start_kill_timer(pgid);
  }
  if (kill_deadline_ && now >= *kill_deadline_) {
    log("grace period over: SIGKILL to the task's process group");
    signal_all(pgid, SIGKILL);
    kill_deadline_ = now + std::chrono::hours(24);
  }
}

void Supervision::tick() {
  auto now = SteadyClock::now();
  if (!hooks_.while_running || now - last_tick_ < std::chrono::seconds(1)) return;
  last_tick_ = now;
  hooks_.while_running();
}

AttemptOutcome Supervision::wait_attempt(const ChildInfo& child) {
  if (stopping_) start_kill_timer(child.pgid);
  for (;;) {
    tick();
    if (auto done = reap_until(child.pid)) {
      // The leader is gone; anything left in its group would become an orphan.
      if (group_alive(child.pgid))
        terminate_group(child.pgid, milliseconds(2000), reap_any_children);
      if (hooks_.attempt_ended) hooks_.attempt_ended();
      AttemptOutcome out{*done, stopping_, timed_out_ && !stopping_};
      kill_deadline_.reset();
      return out;
    }
    handle_signal(wait_signal(milliseconds(250)), child.pgid);
    check_deadlines(child.pgid);
  }
}

AttemptOutcome Supervision::watch_adopted() {
  auto pid = static_cast<pid_t>(run_.pid);
  auto pgid = static_cast<pid_t>(run_.pgid);
  if (stop_requested().value_or(false)) {
    stopping_ = true;
    start_kill_timer(pgid);
  }
  while (process_matches(pid, run_.start_ticks)) {
    tick();
    handle_signal(wait_signal(milliseconds(250)), pgid);
    check_deadlines(pgid);
    reap_any_children();
  }
  if (group_alive(pgid)) terminate_group(pgid, milliseconds(2000), reap_any_children);
  if (hooks_.attempt_ended) hooks_.attempt_ended();
  AttemptOutcome out;
  out.stopped = stopping_;
  out.timed_out = timed_out_ && !stopping_;
  out.unknown_exit = true;
  end_instances(out);
  return out;
}

std::optional<AttemptOutcome> Supervision::wait_coordination(
    const std::vector<ChildInfo>& leaders) {
  std::vector<bool> done(leaders.size(), false);
  size_t left = 0;
  for (const auto& c : leaders) left += c.pid > 0 ? 1 : 0;
  for (size_t i = 0; i < leaders.size(); ++i) done[i] = leaders[i].pid <= 0;
  std::optional<AttemptOutcome> failed;
  while (left > 0) {
    tick();
    int status = 0;
    for (pid_t p; (p = waitpid(-1, &status, WNOHANG)) > 0;) {
      for (size_t i = 0; i < leaders.size(); ++i) {
        if (leaders[i].pid != p || done[i]) continue;
        done[i] = true;
        --left;
        auto st = decode_wait_status(status);
        coordination_exited(i, st);
        if (!failed && st.shell_code() != 0)
          failed = AttemptOutcome{st, false, false, false,
                                  fmt::format("the coordination command of instance {}", i)};
      }
    }
    if (left == 0) break;
    handle_signal(wait_signal(milliseconds(250)), 0);
    check_deadlines(0);
  }
  kill_deadline_.reset();
  if (stopping_ || timed_out_) {
    AttemptOutcome out = failed.value_or(AttemptOutcome{});
    out.stopped = stopping_;
    out.timed_out = timed_out_ && !stopping_;
    return out;
  }
  return failed;
}

}  // namespace trainyard
