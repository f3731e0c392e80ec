// A Batch job's unread stdout and stderr files read into their cache copies by the account's
// worker (as `trainyard logs` reads one): for `:grep`, which searches the copies there are and
// counts the ones still missing, and for the sweep view, whose final values are the last lines.
#include <fmt/format.h>

#include "core/byte_size.hpp"
#include "sync/task_log_backfill.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

BatchCommand fetch_job_logs(std::string data_dir, std::string account, std::string job,
                            std::vector<MetricPattern> patterns, std::string purpose) {
  return [=](azure::BatchClient& client, Store& store) -> Result<std::string> {
    RemoteLogOptions options;
    options.metric_patterns = patterns;
    LogBackfillTarget target{store, client, data_dir, account, options};
    auto read = read_unread_job_logs(target, job);
    if (!read) return read.error();
    return fmt::format("{}: read {} of logs of {} task(s) of {}", purpose, human_size(read->bytes),
                       read->tasks, job);
  };
}

BatchCommand fetch_runs(std::string data_dir, std::string account, std::vector<RunRef> runs,
                        std::vector<MetricPattern> patterns, std::string purpose) {
  return [=](azure::BatchClient& client, Store& store) -> Result<std::string> {
    RemoteLogOptions options;
    options.metric_patterns = patterns;
    LogBackfillTarget target{store, client, data_dir, account, options};
    LogBackfill read;
    for (const auto& r : runs) {
      auto t = store.task(account, r.job, r.task);
      if (!t) return t.error();
      if (!*t || (*t)->state < TaskState::Running) continue;
      auto one = read_task_logs(target, r.job, r.task, (*t)->state == TaskState::Completed);
      if (!one) return one.error();
      read += *one;
    }
    return fmt::format("{}: read {} of logs of {} run(s)", purpose, human_size(read.bytes),
                       read.tasks);
  };
}

}  // namespace

void fetch_run_logs(AppContext& ctx, TuiState& st, const std::vector<RunRef>& runs,
                    const std::string& purpose) {
  const std::string& account = st.top().account;
  if (account == kLocalAccount || runs.empty()) return;
  run_batch(ctx, st, fmt::format("reading the logs of {} run(s) for {}", runs.size(), purpose),
            fetch_runs(ctx.data_dir, account, runs, ctx.settings.metric_patterns, purpose), false);
}

void fetch_job_logs(AppContext& ctx, TuiState& st, const std::string& purpose) {
  const Frame& f = st.top();
  if (f.account == kLocalAccount) return;
  run_batch(ctx, st, fmt::format("reading the logs of {} for {}", f.job, purpose),
            fetch_job_logs(ctx.data_dir, f.account, f.job, ctx.settings.metric_patterns, purpose),
            false);
}

}  // namespace trainyard
