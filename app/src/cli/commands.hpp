// Internal: one registration function per subcommand.
#pragma once

#include <functional>
#include <string>

#include <CLI/CLI.hpp>

#include "app/cli.hpp"

namespace trainyard {

/// Options shared by every subcommand and the chosen action.
struct CliState {
  std::string data_dir;
  bool readonly = false;  ///< `--readonly`: every change to a Batch account is refused
  std::vector<std::string> command_words;  ///< everything after the first `--`, untouched
  std::function<int()> action;             ///< set by the subcommand that was chosen
};

/// A subcommand's body, run with the parsed flags of its group (PoolFlags, JobFlags…).
template <class Flags>
using FlagsRunner = int (*)(const CliState&, const Flags&);

/// The flags of the TUI itself (no subcommand), read into `request`.
void add_tui_flags(CLI::App& app, TuiRequest& request);

void register_run(CLI::App& app, CliState& st);
void register_ls(CLI::App& app, CliState& st);
void register_logs(CLI::App& app, CliState& st);
void register_wait(CLI::App& app, CliState& st);
void register_stop(CLI::App& app, CliState& st);
void register_rm(CLI::App& app, CliState& st);
void register_submit(CLI::App& app, CliState& st);
void register_supervise(CLI::App& app, CliState& st);
void register_emulator(CLI::App& app, CliState& st);
void register_accounts(CLI::App& app, CliState& st);
void register_sync(CLI::App& app, CliState& st);
void register_pool(CLI::App& app, CliState& st);
void register_node(CLI::App& app, CliState& st);
void register_job(CLI::App& app, CliState& st);
void register_task(CLI::App& app, CliState& st);
void register_sweep(CLI::App& app, CliState& st);
void register_metrics(CLI::App& app, CliState& st);
void register_storage(CLI::App& app, CliState& st);
void register_outputs(CLI::App& app, CliState& st);
void register_prices(CLI::App& app, CliState& st);
void register_cost(CLI::App& app, CliState& st);

}  // namespace trainyard
