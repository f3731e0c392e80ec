// Internal: what the TUI lends beyond its panes: the terminal handed to a program (ssh), alerts
// beyond the status line (bell, command), and TensorBoard for a local run.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "alert_notifier.hpp"
#include "core/result.hpp"
#include "tensorboard.hpp"
#include "terminal.hpp"

namespace trainyard {

struct AppContext;
struct TuiState;

/// Lives as long as the TUI; stopping it stops TensorBoard and the alert worker.
struct TuiServices {
  /// Runs a program with the terminal handed over (the UI suspended), then takes it back; the
  /// program's exit status.
  std::function<Result<int>(const std::vector<std::string>& argv)> run_in_terminal;
  std::vector<std::string> child_env;  ///< what children get: the environment without secrets
  std::unique_ptr<AlertNotifier> alerts;
  TensorBoard tensorboard;
};

/// The services of a TUI on `term`; alerts as config.json's `alerts` say (none when it has
/// none). A command's failure comes back as a status message through `st.work.events`.
std::shared_ptr<TuiServices> make_services(AppContext& ctx, Terminal& term, TuiState& st,
                                           AlertConfig alerts);

/// Shows `alerts` in the status line (news of preemptions is there already), then rings and
/// runs commands as their accounts ask.
void announce_alerts(TuiState& st, const std::vector<Alert>& alerts);

/// `T` on a local run: TensorBoard on its working directory (one at a time), its URL in the
/// status line; when `tensorboard` is not on PATH, says so.
void open_tensorboard(TuiState& st);

}  // namespace trainyard
