// Internal: moving about beyond the crumbs: history back and forward (`[` `]`) and the jumps
// `:job J`, `:task JOB/TASK`, `:pool P`.
#pragma once

#include <string>

#include "app/context.hpp"
#include "keymap.hpp"
#include "tui_pane.hpp"

namespace trainyard {

struct TuiState;

/// `[` and `]`: shows the stack shown before (after) and says so when there is none; false when
/// `a` is not a history action.
bool move_in_history(AppContext& ctx, TuiState& st, Action a);

/// `:alljobs`, `:allpools`: the all-accounts pane `v` on its own.
void open_all_accounts(AppContext& ctx, TuiState& st, View v);

/// `:job J`: the tasks of job `J` of the account in focus; an unknown job says so in the
/// status line and changes nothing.
void jump_to_job(AppContext& ctx, TuiState& st, const std::string& job);
/// `:task JOB/TASK`: the task's detail (local and Batch alike).
void jump_to_task(AppContext& ctx, TuiState& st, const std::string& ref);
/// `:pool P`: the nodes of pool `P`.
void jump_to_pool(AppContext& ctx, TuiState& st, const std::string& pool);

}  // namespace trainyard
