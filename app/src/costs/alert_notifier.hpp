// Internal: telling alerts beyond the status line: the terminal bell, and the user's command
// (`notify-send`, a webhook script), run on a worker thread so a slow one never holds the UI.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "alert_watch.hpp"
#include "core/result.hpp"

namespace trainyard {

/// The environment an alert command gets: `base` (already without secrets) and the event's
/// facts: TRAINYARD_ALERT (the text), EVENT, ACCOUNT, JOB, TASK, POOL.
std::vector<std::string> alert_environment(std::vector<std::string> base, const Alert& a);

/// Runs `command` by /bin/sh -c with `env`, killing its process group after `timeout_seconds`;
/// an error (one line) when it cannot start, exits non-zero or runs too long.
Result<void> run_alert_command(const std::string& command, const std::vector<std::string>& env,
                               int timeout_seconds);

/// Rings the bell and runs the commands of the alerts their account's settings ask for.
class AlertNotifier {
 public:
  /// `env`: what every command starts from (secrets already removed); `bell` rings the
  /// terminal's; `failed` gets a command's failure as one line (from the worker thread).
  AlertNotifier(AlertConfig config, std::vector<std::string> env, std::function<void()> bell,
                std::function<void(std::string)> failed);
  /// Lets the command running finish (it has its timeout), drops the queued ones, joins.
  ~AlertNotifier();
  AlertNotifier(const AlertNotifier&) = delete;
  AlertNotifier& operator=(const AlertNotifier&) = delete;

  /// Rings once when any alert's account asks for the bell; queues each command.
  void notify(const std::vector<Alert>& alerts);
  /// Waits until every queued command has run (tests).
  void settle();

 private:
  struct Job {
    std::string command;
    std::vector<std::string> env;
    int timeout_seconds = 10;
  };
  void run();

  AlertConfig config_;
  std::vector<std::string> env_;
  std::function<void()> bell_;
  std::function<void(std::string)> failed_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  bool busy_ = false;
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once everything above is built
};

}  // namespace trainyard
