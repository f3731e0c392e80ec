#include "plugin_process.hpp"

#include "core/child_process.hpp"

namespace trainyard {

PluginOutcome run_plugin_command(const std::string& command, const std::vector<std::string>& env,
                                 std::chrono::milliseconds limit, const std::atomic<bool>& cancel) {
  CapturedRun run;
  run.argv = {"/bin/sh", "-c", command};
  run.env = env;
  run.merge_stderr = true;
  run.deadline = std::chrono::steady_clock::now() + limit;
  run.cancel = &cancel;
  PluginOutcome o;
  auto r = run_captured(run);
  if (!r) {
    o.error = "cannot run /bin/sh";
    return o;
  }
  o.output = std::move(r->out);
  o.exit_code = r->exit_status;
  o.timed_out = r->timed_out;
  o.cancelled = r->cancelled;
  return o;
}

}  // namespace trainyard
