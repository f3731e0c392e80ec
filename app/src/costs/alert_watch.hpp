// Internal: alerts from what the pollers and the local engine stored: the transitions seen
// between two looks at an account (a task finished, a job completed, a pool's resize done)
// and its preemption news. Each event is told once; an account's first look only records.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "alert_settings.hpp"
#include "store/store.hpp"

namespace trainyard {

/// One alert: what happened, where, and the line that tells it.
struct Alert {
  AlertKind kind = AlertKind::TaskFailed;
  std::string account, job, task, pool;
  std::string text;  ///< `task j/t failed (exit 3)`: raw, sanitized where it is shown
};

/// What the watcher last saw of one account.
struct AlertsSeen {
  std::map<std::string, int64_t> completed;  ///< finished tasks, by job
  std::set<std::string> finished;            ///< `job/task@end` of each finished task listed
  std::map<std::string, JobState> jobs;
  std::map<std::string, AllocationState> pools;
};

/// What was seen, by account.
using AlertWatch = std::map<std::string, AlertsSeen>;

/// The alerts `settings` asks for in `account` since the last call; `preemption_news` is the
/// account's news since the last look (empty: none).
std::vector<Alert> account_alerts(Store& store, const std::string& account,
                                  const AlertSettings& settings, const std::string& preemption_news,
                                  AlertWatch& watch);

/// Every configured account's alerts (see account_alerts); `news` is preemption news by account.
std::vector<Alert> watch_alerts(Store& store, const AlertConfig& config,
                                const std::map<std::string, std::string>& news, AlertWatch& watch);

}  // namespace trainyard
