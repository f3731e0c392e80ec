// `:grep` on a Batch account: the job's stdout and stderr files are read into their cache
// copies by the account's worker (as `trainyard logs` reads one), while the Grep pane searches
// the copies there are and counts the ones still missing, so its header shows the progress.
#include <fmt/format.h>

#include "sync/remote_log.hpp"
#include "tui_batch.hpp"
#include "tui_grep.hpp"

namespace trainyard {
namespace {

// One file read to the end: the last read of a completed task, else steps while there is more.
Result<TailStep> read_whole(RemoteLogTail& tail, bool completed) {
  if (completed) return tail.finish();
  auto step = tail.step();
  while (step && step->more) step = tail.step();
  return step;
}

struct FetchCount {
  size_t read = 0, absent = 0;
};

Result<void> fetch_task_logs(azure::BatchClient& client, Store& store, const std::string& data_dir,
                             const Task& t, FetchCount& n) {
  for (const char* file : {"stdout.txt", "stderr.txt"}) {
    auto tail =
        RemoteLogTail::open(store, client, data_dir, {t.account, t.job_id, t.id, "", "", file});
    if (!tail) return tail.error();
    auto step = read_whole(*tail, t.state == TaskState::Completed);
    if (!step) return step.error();
    ++(step->missing ? n.absent : n.read);
  }
  return ok_result();
}

BatchCommand fetch_job_logs(std::string data_dir, std::string account, std::string job) {
  return [data_dir, account, job](azure::BatchClient& client, Store& store) -> Result<std::string> {
    TaskQuery q;
    q.account = account;
    q.job = job;
    auto tasks = store.tasks(q);
    if (!tasks) return tasks.error();
    FetchCount n;
    for (const auto& t : *tasks)
      if (auto r = fetch_task_logs(client, store, data_dir, t, n); !r) return r.error();
    return fmt::format("grep: {} log(s) of {} fetched{}", n.read, job,
                       n.absent ? fmt::format(", {} not written yet", n.absent) : "");
  };
}

}  // namespace

void fetch_logs_for_grep(AppContext& ctx, TuiState& st) {
  const Frame& f = st.top();
  run_batch(ctx, st, fmt::format("fetching the logs of {} for grep", f.job),
            fetch_job_logs(ctx.data_dir, f.account, f.job), false);
}

}  // namespace trainyard
