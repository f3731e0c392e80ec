// The per-task supervisor: a detached process that runs a task's attempts and records how it ended.
#pragma once

#include <functional>
#include <string>

#include "local/engine.hpp"

namespace trainyard {

/// Which task the supervisor owns.
struct SupervisorArgs {
  std::string job;
  std::string task;
  bool adopt = false;  ///< watch a task whose earlier supervisor died, instead of starting it
};

/// Work the caller adds to supervision (the app parses metrics from the output here).
struct SupervisorHooks {
  std::function<void()> while_running;  ///< about once a second while the task runs
  std::function<void()> attempt_ended;  ///< after each attempt, before it is recorded
};

/// Supervises the task to its end, then starts queued work; returns the process exit code.
/// Runs in its own session, ignores SIGHUP, and treats SIGTERM as "stop the task".
int run_supervisor(Store& store, const EngineConfig& config, const SupervisorArgs& args,
                   const SupervisorHooks& hooks = {});

}  // namespace trainyard
