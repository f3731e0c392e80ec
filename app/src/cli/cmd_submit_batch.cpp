// `trainyard submit FILE --account A`: the spec's jobs sent to a Batch account (batch_submit.hpp),
// with the inputs uploaded first and one line printed per job.
#include "cmd_submit_batch.hpp"

#include <optional>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "output.hpp"

namespace trainyard {

int submit_to_batch(const CliState& st, const std::string& account,
                    const std::vector<spec::JobSpec>& specs, const UploadFlags& upload) {
  auto all = submit_bodies(specs);
  if (!all) return report(all.error());
  auto session = open_action(st, account, "submit", ActionKind::Change);
  if (!session) return report(session.error());
  for (size_t i = 0; i < specs.size(); ++i) {
    const JobBodies& bodies = (*all)[i];
    const std::string id = bodies.first.value("id", "");
    std::optional<TaskInputs> inputs;
    if (!upload.dir.empty()) {
      auto made = prepare_task_inputs(session->ctx->settings, session->account, upload, id,
                                      upload_lifetime(std::nullopt), session->ctx->clock);
      if (!made) return report_failure("submit --upload", made.error());
      out::eprint("trainyard: {}", inputs_line(*made));
      inputs = std::move(*made);
    }
    auto sent = send_job(*session->client, specs[i], bodies, inputs ? &*inputs : nullptr);
    if (!sent) return report_failure("submit job " + id, sent.error());
    if (sent->resumed)
      out::eprint("trainyard: note: job {} exists with {} task(s): adding the {} missing", id,
                  sent->existing, sent->missing);
    // The job and its tasks reach the cache now, so `ls jobs` and the TUI count them at once.
    refresh_job(*session, id);
    refresh_tasks(*session, id);
    out::print("{}", sent_line(*sent));
  }
  return kExitOk;
}

}  // namespace trainyard
