#include "tui_services.hpp"

#include <unistd.h>

#include <cstdlib>

#include <fmt/format.h>

#include "core/child_process.hpp"
#include "core/sanitizer.hpp"
#include "local/task_environment.hpp"
#include "node_connect.hpp"
#include "tui_batch.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

std::string alerts_line(const std::vector<Alert>& alerts) {
  std::string line;
  int shown = 0;
  for (const auto& a : alerts) {
    if (a.kind == AlertKind::Preempted) continue;  // the preemption news says it
    line += (line.empty() ? "" : "; ") + a.text;
    ++shown;
  }
  if (shown > 1) line = fmt::format("{} alerts: {}", shown, line);
  return line;
}

}  // namespace

std::shared_ptr<TuiServices> make_services(AppContext& ctx, Terminal& term, TuiState& st,
                                           AlertConfig alerts) {
  auto s = std::make_shared<TuiServices>();
  s->child_env = scrub_environment(current_environment(), ctx.engine.secret_variables);
  s->run_in_terminal = [&term, env = s->child_env](const std::vector<std::string>& argv) {
    term.suspend();
    auto r = run_foreground(argv, env);
    term.resume();
    return r;
  };
  if (alerts.empty()) return s;
  auto bell = [&st] {
    if (st.work.live) (void)!::write(STDOUT_FILENO, "\a", 1);
  };
  auto failed = [&st](std::string line) {
    st.work.events.post(StatusMessage{line, true, "alert"});
  };
  s->alerts = std::make_unique<AlertNotifier>(std::move(alerts), s->child_env, bell, failed);
  return s;
}

void announce_alerts(TuiState& st, const std::vector<Alert>& alerts) {
  if (alerts.empty()) return;
  auto line = alerts_line(alerts);
  if (!line.empty()) {
    bool failure = std::any_of(alerts.begin(), alerts.end(),
                               [](const Alert& a) { return a.kind == AlertKind::TaskFailed; });
    set_status(st, sanitize_text(line), failure ? StatusLevel::Error : StatusLevel::Ok);
  }
  if (st.services && st.services->alerts) st.services->alerts->notify(alerts);
}

void open_tensorboard(TuiState& st) {
  if (st.top().account != kLocalAccount)
    return set_status(st,
                      "T is for local runs; on Batch, connect to the node with L and tunnel 6006");
  auto task = selected_key(st);
  const std::string job = st.top().job;
  if (!task || job.empty()) return set_status(st, "no run selected");
  const char* path = std::getenv("PATH");
  auto program = find_on_path("tensorboard", path ? path : "");
  if (!program)
    return set_status(st, "TensorBoard is not installed (no tensorboard on PATH)",
                      StatusLevel::Error);
  if (!st.services) return;
  auto read = [job, id = *task](Store& s) -> Result<std::string> {
    auto run = s.local_run(job, id);
    if (!run) return run.error();
    if (!*run || (*run)->workdir.empty())
      return make_error(ErrorKind::NotFound,
                        fmt::format("{}/{} has no working directory", job, id));
    return (*run)->workdir;
  };
  st.work.local->submit_read(read, [&st, program = *program](const Result<std::string>& dir) {
    if (!dir)
      return set_status(st, "TensorBoard: " + sanitize_text(dir.error().message),
                        StatusLevel::Error);
    auto url = st.services->tensorboard.start(program, *dir, st.services->child_env);
    if (!url) return set_status(st, "TensorBoard: " + url.error().message, StatusLevel::Error);
    set_status(st,
               sanitize_text(
                   fmt::format("TensorBoard on {}: {} (stops when trainyard exits)", *dir, *url)),
               StatusLevel::Ok);
  });
}

}  // namespace trainyard
