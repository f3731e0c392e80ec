// The TUI: panes over the store, driven by keys, drawn into a Canvas and presented on a Terminal.
#pragma once

#include <chrono>
#include <memory>
#include <string>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "terminal.hpp"

namespace trainyard {

/// Which pane the TUI opens on and how it looks.
struct TuiOptions {
  std::string theme = "dark";
  std::string view = "jobs";  ///< accounts | pools | nodes | jobs | tasks | gpus
  std::string account = kLocalAccount;
  std::string job;
  std::string demo_command;  ///< pre-filled in the run form
  bool readonly = false;     ///< `--readonly`: every change to a Batch account is refused
  bool ascii = false;        ///< draw in ASCII (a terminal that is not UTF-8; `"ascii": true`)
  int stop_fd = -1;          ///< readable when the TUI must end (a stop signal came): it quits then
};

struct TuiState;

/// The UI thread's object: owns the UI state; only it touches the terminal.
class Tui {
 public:
  Tui(AppContext& ctx, Terminal& term, TuiOptions options);
  ~Tui();
  Tui(const Tui&) = delete;
  Tui& operator=(const Tui&) = delete;

  /// Runs until the user quits; returns the exit code.
  int run();
  /// Handles one key (dispatch: modal, then pane keymap, then global keymap).
  void handle_key(const KeyEvent& key);
  /// Reloads data from the store.
  void refresh();
  /// Waits for the local actions handed to the worker, shows their outcomes and reloads
  /// (headless use; the interactive loop never waits).
  void settle();
  /// Starts polling Batch accounts as the interactive loop does (headless use).
  void go_live();
  /// Takes in what workers and pollers reported and reloads what changed, as a turn of the
  /// interactive loop does (headless use).
  void pump();
  /// Renders the current state and presents it.
  void draw();
  /// Takes one GPU sample now (headless use, where no sampling thread runs).
  void sample_gpus_once();
  /// True once the user asked to quit.
  bool done() const;
  /// What quitting leaves behind that the user should know (idle dedicated nodes billing), to
  /// print once the terminal is restored; empty: nothing.
  std::string parting_note() const;

 private:
  std::chrono::milliseconds refresh_interval() const;
  void tick();
  void reload(std::chrono::steady_clock::time_point now);
  bool handle_events();
  /// Shows the reader's newest model when it answers the latest request; true when shown.
  bool apply_read();

  AppContext& ctx_;
  Terminal& term_;
  std::unique_ptr<TuiState> st_;
};

/// `--dump-frame WxH --keys "…"`: renders headless, feeds the keys, prints the final frame.
int dump_frame(AppContext& ctx, const std::string& size, const std::string& keys,
               TuiOptions options);

/// `trainyard` with no subcommand: checks the theme and the account, then opens the TUI on this
/// terminal (or renders one frame headless with `--dump-frame`) and returns the exit code. A
/// stop signal that ended it is passed on once the terminal is restored.
int open_tui(const TuiRequest& request);

}  // namespace trainyard
