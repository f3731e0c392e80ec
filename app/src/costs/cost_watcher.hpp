// Internal: the TUI's cost watcher, a thread with its own store connection that works out the
// watched Batch accounts' costs (account_costs.hpp) every half minute, or at once when the set
// of accounts changes, and hands them to the UI thread, which never queries the store. A job
// of 100,000 tasks takes it a second or two; no read of a pane waits on that.
#pragma once

#include <chrono>
#include <condition_variable>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "account_costs.hpp"
#include "app/context.hpp"

namespace trainyard {

/// Every watched account's costs, as last worked out.
struct CostSnapshot {
  uint64_t serial = 0;  ///< grows with each snapshot
  std::map<std::string, AccountCosts> accounts;
};

/// How often the costs are worked out again while nothing asks sooner.
inline constexpr std::chrono::seconds kCostInterval{30};

class CostWatcher {
 public:
  /// A watcher on `ctx`'s data directory and settings; none when its connection cannot be
  /// opened. `ready` tells the UI thread a snapshot is ready (from the watcher's thread).
  static std::unique_ptr<CostWatcher> open(const AppContext& ctx, std::function<void()> ready);
  ~CostWatcher();
  CostWatcher(const CostWatcher&) = delete;
  CostWatcher& operator=(const CostWatcher&) = delete;

  /// Watches these accounts from now on; a change works them out at once.
  void watch(std::set<std::string> accounts);
  /// The newest snapshot; null before the first.
  std::shared_ptr<const CostSnapshot> snapshot() const;
  /// The budget alerts since the last take, each once.
  std::vector<Alert> take_alerts();
  /// Works the costs out now and waits for them (a headless TUI, tests).
  void settle();

 private:
  CostWatcher(std::unique_ptr<AppContext> ctx, std::function<void()> ready);
  void run();
  void work_out(const std::set<std::string>& accounts);

  std::unique_ptr<AppContext> ctx_;  // the watcher's own: its store is its connection
  std::function<void()> ready_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::set<std::string> accounts_;
  bool due_ = false;  // work out now
  uint64_t asked_ = 0, done_ = 0;
  bool stopping_ = false;
  std::shared_ptr<const CostSnapshot> snapshot_;
  std::vector<Alert> alerts_;
  std::map<std::string, std::set<std::string>> crossed_;  // the watcher thread's, by account
  std::thread thread_;  // last: it starts once everything above is built
};

}  // namespace trainyard
