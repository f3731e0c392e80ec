// Command-line entry point: `trainyard [SUBCOMMAND] …`.
#pragma once

#include <string>

namespace trainyard {

/// Exit codes the CLI promises scripts.
enum ExitCode { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

/// What the command line asks of the TUI (`trainyard` with no subcommand): its flags as given.
struct TuiRequest {
  std::string data_dir;   ///< `--data-dir`
  bool readonly = false;  ///< `--readonly`
  bool ascii = false;     ///< `--ascii`
  std::string dump_frame, keys, theme, open = "jobs", account = "local", job;
};

/// Opens the TUI for a request and returns the exit code. main() hands in the TUI library's
/// open_tui, so that the CLI depends on no TUI code.
using TuiOpener = int (*)(const TuiRequest& request);

/// Parses argv, runs the subcommand (or the TUI, by `open_tui`) and returns the process exit
/// code.
int run_cli(int argc, char** argv, TuiOpener open_tui);

}  // namespace trainyard
