#include "metric_backfill.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "account_lookup.hpp"
#include "core/byte_size.hpp"
#include "output.hpp"
#include "sync/batch_sync.hpp"
#include "sync/task_log_backfill.hpp"

namespace trainyard {

namespace {

Result<LogBackfill> read_missing(AppContext& ctx, azure::BatchClient& client,
                                 const MetricBackfillScope& scope) {
  RemoteLogOptions options;
  options.metric_patterns = ctx.settings.metric_patterns;
  LogBackfillTarget target{*ctx.store, client, ctx.data_dir, scope.account, options};
  if (scope.task.empty()) return read_unread_job_logs(target, scope.job);
  return read_started_task_logs(target, scope.job, scope.task);
}

Result<LogBackfill> refresh_and_read(AppContext& ctx, const MetricBackfillScope& scope) {
  auto account = find_account(ctx.settings, scope.account);
  if (!account) return account.error();
  auto client = open_batch_client(*account, ctx.clock);
  if (!client) return client.error();
  SyncScope sync{account->name, account->emulator ? AccountKind::Emulator : AccountKind::Batch,
                 account->endpoint, scope.job};
  sync.pools = false;
  sync.nodes = false;
  TY_TRY(full_sync(*ctx.store, **client, sync));
  return read_missing(ctx, **client, scope);
}

// How many of the scope's tasks still lack logs, for the warning that the answer is partial.
size_t unread_tasks(AppContext& ctx, const MetricBackfillScope& scope) {
  auto unread = ctx.store->tasks_with_unread_logs(scope.account, scope.job, INT64_MAX);
  if (!unread) return 0;
  if (scope.task.empty()) return unread->size();
  return static_cast<size_t>(std::count_if(unread->begin(), unread->end(),
                                           [&](const auto& u) { return u.task == scope.task; }));
}

void warn_partial(AppContext& ctx, const MetricBackfillScope& scope, const std::string& why) {
  const size_t n = unread_tasks(ctx, scope);
  if (n == 0) return;
  out::eprint(
      "trainyard: {}: {}; the logs of {} task(s) are not all in the cache, so their "
      "metrics may stop short",
      scope.account, why, n);
}

}  // namespace

Result<void> backfill_metrics(AppContext& ctx, const MetricBackfillScope& scope) {
  if (scope.account == kLocalAccount) return {};
  if (scope.offline) {
    warn_partial(ctx, scope, "offline");
    return {};
  }
  auto read = refresh_and_read(ctx, scope);
  if (!read && read.error().kind == ErrorKind::Auth) return read.error();
  if (!read) {
    warn_partial(ctx, scope, "reading the logs failed: " + read.error().message);
    return {};
  }
  if (read->tasks)
    out::eprint("trainyard: read {} of logs of {} task(s) of {}", human_size(read->bytes),
                read->tasks, scope.job);
  return {};
}

}  // namespace trainyard
