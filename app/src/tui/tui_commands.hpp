// Internal: the TUI's `:` commands as one table, read by the command line (run, Tab completion),
// the `:` key's help and the unknown-command message.
#pragma once

#include <functional>
#include <string>
#include <vector>

namespace trainyard {

struct AppContext;
struct TuiState;

/// One `:` command.
struct TuiCommand {
  std::string name;                  ///< what Tab completes to (`jobs`)
  std::vector<std::string> aliases;  ///< other spellings it answers to (`job`, `jo`)
  std::function<void(AppContext&, TuiState&)> run;
  std::string help;  ///< the spelling the `:` key's help lists (`q` for quit); empty: unlisted
  /// Set for a command that takes an argument (`:save PATH`, `:job J`): run with the text after
  /// its name (and with none when `run` is empty).
  std::function<void(AppContext&, TuiState&, const std::string&)> run_with = {};
};

/// Every `:` command, in the order the help lists them.
const std::vector<TuiCommand>& tui_commands();

/// The command `text` names (its name or an alias), or nullptr.
const TuiCommand* find_tui_command(const std::string& text);

/// `:jobs :tasks :pools :gpus :run :submit :sweep :q`: the listed commands.
std::string listed_commands();

}  // namespace trainyard
