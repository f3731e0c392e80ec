// Internal: what the Batch action subcommands (pool, node, job, task) share: opening the client
// for `--account`, refusing changes to a read-only account, refreshing what changed into the
// store, reading JSON files, asking for confirmation, printing results.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include <CLI/CLI.hpp>
#include <nlohmann/json_fwd.hpp>

#include "app/context.hpp"
#include "azure/accounts.hpp"
#include "azure/batch_client.hpp"
#include "batch_action.hpp"
#include "commands.hpp"

namespace trainyard {

/// What one Batch action works with: the opened store, the account and its client.
struct ActionSession {
  std::unique_ptr<AppContext> ctx;
  azure::AccountConfig account;
  std::unique_ptr<azure::BatchClient> client;
};

/// The account an action acts on: `flag`, else $TRAINYARD_ACCOUNT, else `defaultAccount`, else
/// local.
std::string chosen_account(const std::string& flag, const Settings& settings);

/// Adds `--account A` to a subcommand.
void add_account_option(CLI::App* cmd, std::string& account);

/// Opens what `action` (`pool resize`) on `account` needs: `--account`, else $TRAINYARD_ACCOUNT,
/// else `defaultAccount`. Usage errors, before any request: account `local` (the action is
/// Batch-only), and a change to a read-only account (`--readonly` or its config), whose
/// message is `account A is read-only (…how to change it)`.
Result<ActionSession> open_action(const CliState& st, const std::string& account,
                                  const std::string& action, ActionKind kind);

/// Prints `trainyard: <what>: <message>` (sanitized) to stderr; 2 for Usage errors, else 1.
int report_failure(const std::string& what, const Error& e);

/// Prints one result line (sanitized) to stdout; returns kExitOk.
int print_done(const std::string& line);

/// After a change: GETs the entity and upserts it into the store (a 404 removes it), so the TUI
/// and `ls` show it at once. A failure is a warning on stderr: the action itself succeeded.
void refresh_job(ActionSession& s, const std::string& job);
/// Refreshes every task of a job (one paged list), e.g. after adding many.
void refresh_tasks(ActionSession& s, const std::string& job);

/// Names one action: the command (`pool resize`, for the Batch-only message) and what it does
/// to what (`resize pool gpu`, the prefix of its failure).
struct ActionSpec {
  std::string command;
  std::string what;
  ActionKind kind = ActionKind::Change;
};

/// Opens the account (open_action), runs `act`, and on success `after` (refresh, print), whose
/// return is the exit code. Failures are reported: opening ones plainly, `act`'s as
/// report_failure(spec.what, …).
int run_action(const CliState& st, const std::string& account, const ActionSpec& spec,
               const std::function<Result<void>(ActionSession&)>& act,
               const std::function<int(ActionSession&)>& after);

/// Runs a catalogue action on the account (open_action names it `command` when refused): prints
/// its line to stdout and its warnings to stderr; its failure is report_failure(action.what, …).
int run_catalogued(const CliState& st, const std::string& account, const std::string& command,
                   const BatchAction& action);
/// The same in an opened session; the line printed, or the failure reported (its exit code).
Result<void> run_in_session(ActionSession& s, const BatchAction& action);

/// Reads a JSON file. A Usage error names it: `F: cannot read it: …`, or for malformed JSON
/// `F:LINE:COLUMN: not valid JSON (…)`.
Result<nlohmann::json> read_json_file(const std::string& path);

/// With `yes`, nothing. Otherwise, on a terminal, asks the user to type `expected` to confirm
/// `what` (`deleting pool gpu`); without a terminal (or another answer) a Usage error saying to
/// pass --yes.
Result<void> confirm_typed(const std::string& what, const std::string& expected, bool yes);

}  // namespace trainyard
