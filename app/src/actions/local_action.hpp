// Internal: one action on a local run as the CLI subcommand and the TUI key both run it, on a
// LocalEngine: the CLI's own, or the TUI's LocalWorker thread (never the UI thread). Its text
// is the outcome line: the CLI's stdout, the TUI's status bar.
#pragma once

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "local/engine.hpp"

namespace trainyard {

/// One action on a local run.
struct LocalAction {
  std::string what;  ///< names it in a failure: `stop default/t1`
  std::function<Result<std::string>(LocalEngine&)> run;
};

namespace act {

/// SIGTERM to the run's process group, SIGKILL after `grace` (default 10 s).
LocalAction stop_run(std::string job, std::string task,
                     std::optional<std::chrono::seconds> grace = std::nullopt);
/// Removes a finished run and its files.
LocalAction remove_run(std::string job, std::string task);
/// Queues a finished run again as its next attempt, with `environment` (the caller's: a
/// finished run's saved environment was deleted when it ended).
LocalAction reactivate_run(std::string job, std::string task, std::vector<std::string> environment);

}  // namespace act
}  // namespace trainyard
