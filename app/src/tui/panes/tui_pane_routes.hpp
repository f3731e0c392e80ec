// Internal: how each pane is reached: the frame every stack starts from, the keys and `:`
// commands that open a pane from anywhere, the jumps (`:job J`), and the frames of the sub-panes
// opened over a row (JSON, columns, plugin output, logs). The rest of the TUI opens panes only
// through these, so that it never names a pane kind.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/context.hpp"
#include "keymap.hpp"
#include "tui_commands.hpp"
#include "tui_pane.hpp"

namespace trainyard {

struct TuiState;

/// The frame at the bottom of every stack: the accounts, with `account` in focus.
Frame home_frame(std::string account);
/// The pane named `name` (`--view`, `:jobs`) with its parents under it, over the account, pool
/// and job in focus; an unknown name opens the jobs.
void open_pane_named(AppContext& ctx, TuiState& st, const std::string& name);
/// Opens the pane that key `a` opens from anywhere (`p` pools, `j` jobs…); false when it opens
/// none.
bool open_pane_by_key(AppContext& ctx, TuiState& st, Action a);
/// Opens the sub-pane that `a` opens over the selected row (`d` detail, `l` logs, `i` outputs);
/// false when it opens none.
bool open_sub_pane_by_key(AppContext& ctx, TuiState& st, Action a);
/// The `:` commands that open a pane (`:jobs`, `:job J`, `:alljobs`…), in the help's order.
std::vector<TuiCommand> pane_commands();

/// `:job J`: the tasks of job `J` of the account in focus; an unknown job says so in the
/// status line and changes nothing.
void jump_to_job(AppContext& ctx, TuiState& st, const std::string& job);
/// `:task JOB/TASK`: the task's detail (local and Batch alike).
void jump_to_task(AppContext& ctx, TuiState& st, const std::string& ref);
/// `:pool P`: the nodes of pool `P`.
void jump_to_pool(AppContext& ctx, TuiState& st, const std::string& pool);

/// The JSON view (`y`) of `entity` (`task/t1`) in `account`, over frame `from`.
Frame json_frame(Frame from, std::string account, std::string entity);
/// The column chooser of the pane named `pane`, over frame `from`.
Frame columns_frame(Frame from, std::string pane);
/// A plugin's output, over frame `from`.
Frame plugin_frame(Frame from);
/// True when `f` is a log view (a task's, a node's or a blob's).
bool shows_log(const Frame& f);

}  // namespace trainyard
