// A Batch job's unread stdout and stderr files read into their cache copies by the account's
// worker (as `trainyard logs` reads one): for `:grep`, which searches the copies there are and
// counts the ones still missing, and for the sweep view, whose final values are the last lines.
#include <functional>

#include <fmt/format.h>

#include "core/byte_size.hpp"
#include "sync/task_log_backfill.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

using LogRead = std::function<Result<LogBackfill>(LogBackfillTarget&)>;
using ReadSaid = std::function<std::string(const LogBackfill&)>;

// The worker's command: `read` into the cache copies (metrics by `patterns`), then what it read
// in words.
BatchCommand reading_logs(std::string data_dir, std::string account,
                          std::vector<MetricPattern> patterns, LogRead read, ReadSaid said) {
  return [=](azure::BatchClient& client, Store& store) -> Result<std::string> {
    RemoteLogOptions options;
    options.metric_patterns = patterns;
    LogBackfillTarget target{store, client, data_dir, account, options};
    auto r = read(target);
    if (!r) return r.error();
    return said(*r);
  };
}

}  // namespace

void fetch_run_logs(AppContext& ctx, TuiState& st, const std::vector<RunRef>& runs,
                    const std::string& purpose) {
  const std::string& account = st.top().account;
  if (account == kLocalAccount || runs.empty()) return;
  auto read = [runs](LogBackfillTarget& target) -> Result<LogBackfill> {
    LogBackfill total;
    for (const auto& r : runs) {
      auto one = read_started_task_logs(target, r.job, r.task);
      if (!one) return one.error();
      total += *one;
    }
    return total;
  };
  auto said = [purpose](const LogBackfill& r) {
    return fmt::format("{}: read {} of logs of {} run(s)", purpose, human_size(r.bytes), r.tasks);
  };
  run_batch(ctx, st, fmt::format("reading the logs of {} run(s) for {}", runs.size(), purpose),
            reading_logs(ctx.data_dir, account, ctx.settings.metric_patterns, read, said), false);
}

void fetch_job_logs(AppContext& ctx, TuiState& st, const std::string& purpose) {
  const Frame& f = st.top();
  if (f.account == kLocalAccount) return;
  const std::string job = f.job;
  auto read = [job](LogBackfillTarget& target) { return read_unread_job_logs(target, job); };
  auto said = [purpose, job](const LogBackfill& r) {
    return fmt::format("{}: read {} of logs of {} task(s) of {}", purpose, human_size(r.bytes),
                       r.tasks, job);
  };
  run_batch(ctx, st, fmt::format("reading the logs of {} for {}", job, purpose),
            reading_logs(ctx.data_dir, f.account, ctx.settings.metric_patterns, read, said), false);
}

}  // namespace trainyard
