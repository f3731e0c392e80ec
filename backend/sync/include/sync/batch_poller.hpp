// One poller per Batch account: a worker thread that keeps the account's cache fresh, fast for
// what is on screen and slowly for the rest, within one request budget, slowing down when the
// service throttles, and telling the UI when the store changed. Only the process holding the
// account's poll lock polls; the others read what it writes.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "azure/batch_client.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard {

/// What the UI shows of the account now: refreshed every focus interval.
struct PollFocus {
  bool pools = false;    ///< the pool list is on screen
  std::string pool;      ///< this pool's nodes are on screen
  bool jobs = false;     ///< the job list is on screen
  std::string job;       ///< this job's tasks are on screen
  std::string log_task;  ///< with `job`: this task's `log_file` is followed into the cache
  std::string log_node;  ///< with `pool`: this node's `log_file` is followed into the cache
  std::string log_file;  ///< `stdout.txt`, `stderr.txt`, `startup/stderr.txt`…
  /// With `job`: this task's detail is on screen (a multi-instance task's subtasks are read).
  std::string detail_task;
  /// Jobs whose running tasks' stdout.txt is followed too (metrics and sparklines stay live).
  std::vector<std::string> pinned_jobs;
  /// With `jobs`: the jobs whose rows are on screen (the selected one first); their task counts
  /// are compared with the service's every focus interval, a few a cycle within the budget.
  std::vector<std::string> jobs_on_screen;
  /// With `job`: the tasks whose rows are on screen; the running ones' stdout.txt is read at the
  /// focus interval (a few a cycle within the budget), so their metrics and sparklines fill in.
  std::vector<std::string> tasks_on_screen;
  /// The account's burn rate is on screen: node counts are compared every focus interval and the
  /// nodes of pools whose counts changed are listed again (a preempted Spot node stops costing
  /// within one poll).
  bool node_counts = false;
  bool operator==(const PollFocus&) const = default;
};

/// Pace and budget.
struct PollerOptions {
  std::chrono::milliseconds focus_interval{1500};        ///< what is on screen
  std::chrono::milliseconds background_interval{45000};  ///< the rest of the account
  /// How often each job's tasks get a version pass (ids and eTags compared with the cache's):
  /// deletions, and changes that keep stateTransitionTime, reach the cache within this (plus a
  /// background round for jobs not on screen).
  std::chrono::milliseconds deletion_interval{300000};
  std::chrono::milliseconds lock_retry{5000};  ///< how often a passive window asks for the lock
  double requests_per_second = 4;              ///< the account's budget, shared by all panes
  double burst = 20;                           ///< requests that may go at once after a quiet spell
  std::chrono::milliseconds max_backoff{60000};     ///< the longest extra wait after throttling
  std::chrono::milliseconds pinned_interval{5000};  ///< how often pinned jobs' logs are read
  /// The window's process, as the store's watched_logs name it; 0: this process (a test stands
  /// in for a second window with another live pid).
  int64_t pid = 0;
};

/// What the status bar says about the poller.
struct PollerStatus {
  bool polling = false;                  ///< this process holds the account's poll lock
  int64_t holder_pid = 0;                ///< the process that polls instead (0: unknown or none)
  std::string last_error;                ///< the last failed step (empty after a clean cycle)
  std::optional<Timestamp> last_cycle;   ///< when the last cycle ended cleanly
  std::chrono::milliseconds backoff{0};  ///< extra wait now added after throttling or failures
  uint64_t requests = 0, retries = 0, throttled = 0, bytes = 0, cycles = 0;
  /// When the request in flight was sent (none: none is), and to which endpoint: an endpoint
  /// that stopped answering shows as a wait that only grows.
  std::optional<std::chrono::steady_clock::time_point> waiting_since;
  std::string endpoint;
};

/// Opens the account's client in the poller's thread (credentials are resolved there).
using BatchClientFactory = std::function<Result<std::unique_ptr<azure::BatchClient>>()>;

/// A Batch account's poller thread. Every public method may be called from any thread.
class BatchPoller {
 public:
  /// `data_dir`: holds cache.db (the poller opens its own connection) and the copies of remote
  /// logs; `lock_dir`: where the poll locks live; `on_change` is called from the poller's thread
  /// after it wrote to the store, with the sync scopes it wrote (`jobs`, `tasks/<job>`…).
  BatchPoller(std::string account, std::string data_dir, std::string lock_dir,
              BatchClientFactory make_client, PollerOptions options,
              std::function<void(std::vector<std::string>)> on_change);
  /// Stops and joins the thread (a request in flight is cancelled by its timeout at most).
  ~BatchPoller();
  BatchPoller(const BatchPoller&) = delete;
  BatchPoller& operator=(const BatchPoller&) = delete;

  /// Starts the thread.
  void start();
  /// Asks the thread to stop and joins it.
  void stop();
  /// Replaces what is on screen; a change wakes the thread at once.
  void set_focus(PollFocus focus);
  /// Refreshes what is on screen now (a user's explicit refresh).
  void poke();
  /// A copy of the current status.
  PollerStatus status() const;
  const std::string& account() const { return account_; }

 private:
  struct Worker;
  void run();
  bool wait_until(std::chrono::steady_clock::time_point t);

  std::string account_, data_dir_, lock_dir_;
  BatchClientFactory make_client_;
  PollerOptions options_;
  std::function<void(std::vector<std::string>)> on_change_;

  mutable std::mutex mu_;
  std::condition_variable cv_;
  PollFocus focus_;
  bool focus_changed_ = true;
  bool stopping_ = false;
  azure::BatchClient* client_in_use_ = nullptr;  ///< the worker's, cancelled by stop()
  PollerStatus status_;
  std::thread thread_;
};

}  // namespace trainyard
