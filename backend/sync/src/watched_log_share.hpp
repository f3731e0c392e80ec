// Internal: what a window that does not poll its account shows (a job's tasks, the log open),
// told to the process that does (the store's watched_logs), so that it keeps those fresh too.
#pragma once

#include <chrono>
#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "sync/remote_log.hpp"

namespace trainyard {

/// One process's side of the sharing, for one account.
class WatchedLogShare {
 public:
  WatchedLogShare(std::string account, int64_t pid) : account_(std::move(account)), pid_(pid) {}

  /// A window that does not poll: records what it shows (a ref without a path: a job's tasks;
  /// none: forgets it), when it changes and every 30 s while it stays, so that a window gone
  /// without a word is known by its age.
  Result<void> publish(Store& store, const std::optional<RemoteFileRef>& shown, Timestamp now);
  /// The polling window: what other live windows show, said within the last 90 s.
  Result<std::vector<RemoteFileRef>> others(Store& store, Timestamp now) const;
  /// Forgets what this process said (it polls now, or it ends).
  Result<void> withdraw(Store& store);

 private:
  std::string account_;
  int64_t pid_;
  std::optional<RemoteFileRef> published_;
  bool said_ = false;
  Timestamp said_at_{};
};

}  // namespace trainyard
