// `:submit` on a Batch account: the steps of `submit --account A` on the account's worker (the
// UI thread never waits on the network), then the job and its tasks cached, so the Jobs pane
// counts them at once.
#include "batch_submit.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

// The job and its tasks as the service has them now.
Result<void> cache_sent_job(azure::BatchClient& c, Store& s, const std::string& account,
                            const std::string& job, const Clock& clock) {
  TY_TRY(cache_job(s, c, job));
  SyncTarget target{s, c, account, clock};
  SyncStats stats;
  return refresh_tasks(target, job, TaskRefresh::Incremental, stats);
}

}  // namespace

void submit_specs_to_batch(AppContext& ctx, TuiState& st, const std::vector<spec::JobSpec>& specs) {
  auto all = submit_bodies(specs);
  if (!all) return set_status(st, all.error().message, StatusLevel::Error);
  auto command = [all = std::move(*all), specs, account = st.top().account, &clock = ctx.clock](
                     azure::BatchClient& c, Store& s) -> Result<std::string> {
    std::string done;
    for (size_t i = 0; i < all.size(); ++i) {
      auto sent = send_job(c, specs[i], all[i]);
      if (!sent) return sent.error();
      auto line = changed(
          {}, [&] { return cache_sent_job(c, s, account, sent->job, clock); }, sent_line(*sent),
          "job " + sent->job);
      done += (done.empty() ? "" : "; ") + status_text(*line);
    }
    return done;
  };
  run_batch(ctx, st, "submit", std::move(command));
}

}  // namespace trainyard
