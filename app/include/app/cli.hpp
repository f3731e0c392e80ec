// Command-line entry point: `trainyard [SUBCOMMAND] …`.
#pragma once

namespace trainyard {

/// Exit codes the CLI promises scripts.
enum ExitCode { kExitOk = 0, kExitFailure = 1, kExitUsage = 2 };

/// Parses argv, runs the subcommand (or the TUI) and returns the process exit code.
int run_cli(int argc, char** argv);

}  // namespace trainyard
