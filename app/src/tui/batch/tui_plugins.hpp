// Internal: config.json's `plugins`: a command on a key for some panes, run on a worker with the
// selected row in its environment (never a secret), its output shown in the plugin pane.
#pragma once

#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "app/context.hpp"
#include "plugin_process.hpp"
#include "widgets/key.hpp"

namespace trainyard {

struct TuiState;

/// What the plugin pane shows: the latest run.
struct PluginRunView {
  std::string name;  ///< the plugin's name; empty: none ran yet
  bool running = false;
  PluginOutcome outcome;  ///< when it has ended
};

/// Runs one plugin command at a time on its own thread; ending the TUI kills a running one.
class PluginRunner {
 public:
  /// `wake` is called (on the worker) when a run ends.
  explicit PluginRunner(std::function<void()> wake);
  ~PluginRunner();
  PluginRunner(const PluginRunner&) = delete;
  PluginRunner& operator=(const PluginRunner&) = delete;

  /// Starts `command`; false (nothing started) while another run is going.
  bool start(const std::string& name, const std::string& command, std::vector<std::string> env,
             std::chrono::milliseconds limit);
  /// Waits for the run going, if any (headless frames show its end).
  void settle();
  /// The latest run.
  PluginRunView view() const;

 private:
  std::function<void()> wake_;
  mutable std::mutex mutex_;
  PluginRunView view_;
  std::atomic<bool> cancel_{false};
  std::thread thread_;
};

/// The environment a plugin runs with: this process's less every secret, then ACCOUNT, POOL,
/// JOB, TASK, NODE of the focused pane and its selected row, and COL_<TITLE> for each of the
/// row's cells (`COL_STATE`, `COL_EXIT_CODE`).
std::vector<std::string> plugin_environment(const AppContext& ctx, const TuiState& st);

/// Runs the plugin bound to `key` on the focused pane, and shows the plugin pane; false when no
/// plugin is bound to `key` there.
bool run_plugin_key(AppContext& ctx, TuiState& st, const KeyEvent& key);

}  // namespace trainyard
