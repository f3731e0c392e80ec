#include "watched_log_share.hpp"

#include <signal.h>

#include <cerrno>

namespace trainyard {
namespace {

constexpr auto kRepeat = std::chrono::seconds(30);
constexpr auto kStale = std::chrono::seconds(90);

bool same(const std::optional<RemoteFileRef>& a, const std::optional<RemoteFileRef>& b) {
  if (!a || !b) return !a && !b;
  return a->job == b->job && a->task == b->task && a->pool == b->pool && a->node == b->node &&
         a->path == b->path;
}

// A process that ended without forgetting its row: its pid no longer names a process.
bool alive(int64_t pid) {
  return pid > 0 && (::kill(static_cast<pid_t>(pid), 0) == 0 || errno == EPERM);
}

}  // namespace

Result<void> WatchedLogShare::publish(Store& store, const std::optional<RemoteFileRef>& shown,
                                      Timestamp now) {
  // Every commit wakes the other windows' readers: write only what changed, and the heartbeat.
  if (said_ && same(shown, published_) && (!shown || now - said_at_ < kRepeat)) return {};
  if (shown)
    TY_TRY(store.watch_log(
        {pid_, account_, shown->job, shown->task, shown->pool, shown->node, shown->path, now}));
  else
    TY_TRY(store.unwatch_logs(pid_, account_));
  published_ = shown;
  said_ = true;
  said_at_ = now;
  return {};
}

Result<std::vector<RemoteFileRef>> WatchedLogShare::others(Store& store, Timestamp now) const {
  auto rows = store.watched_logs(account_);
  if (!rows) return rows.error();
  std::vector<RemoteFileRef> out;
  for (const auto& w : *rows)
    if (w.pid != pid_ && now - w.at < kStale && alive(w.pid))
      out.push_back({w.account, w.job, w.task, w.pool, w.node, w.file});
  return out;
}

Result<void> WatchedLogShare::withdraw(Store& store) {
  if (!said_ || !published_) return {};
  TY_TRY(store.unwatch_logs(pid_, account_));
  published_.reset();
  return {};
}

}  // namespace trainyard
