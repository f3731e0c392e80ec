#include "tui_navigation.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tui_state.hpp"

namespace trainyard {

bool move_in_history(AppContext& ctx, TuiState& st, Action a) {
  if (a != Action::HistoryBack && a != Action::HistoryForward) return false;
  bool back = a == Action::HistoryBack;
  st.notes.action_label = back ? "history back" : "history forward";
  bool moved = back ? history_back(st.history, st.stack) : history_forward(st.history, st.stack);
  if (!moved) {
    set_status(st, back ? "history: nothing before this" : "history: nothing after this");
    return true;
  }
  focused_pane(st).entered(ctx, st);
  return true;
}

namespace {

// An id as the status line may show it: the user typed it, but it is still outside text.
std::string shown_id(const std::string& id) {
  return id.size() > 80 ? id.substr(0, 80) + "…" : id;
}

void say_unknown(TuiState& st, const std::string& what, const std::string& id,
                 const std::string& account) {
  set_status(st, fmt::format("no {} '{}' in account {}", what, shown_id(id), account),
             StatusLevel::Error);
}

bool job_known(AppContext& ctx, const std::string& account, const std::string& job) {
  auto j = ctx.store->job(account, job);
  return j && j->has_value();
}

}  // namespace

// Over the pane it was opened from, so that Esc and q (its hint bar's `back`) return there.
void open_all_accounts(AppContext& ctx, TuiState& st, View v) {
  if (st.top().view == v) return;
  st.stack.push_back(make_frame(v, st.top().account));
  focused_pane(st).entered(ctx, st);
}

// One read of the store for a typed command, not for a key press: the answer decides whether
// anything moves.
void jump_to_job(AppContext& ctx, TuiState& st, const std::string& job) {
  const std::string account = st.top().account;
  if (!job_known(ctx, account, job)) return say_unknown(st, "job", job, account);
  st.top().job = job;
  open_view(ctx, st, View::Tasks);
}

void jump_to_task(AppContext& ctx, TuiState& st, const std::string& ref) {
  const std::string account = st.top().account;
  auto slash = ref.find('/');
  if (slash == std::string::npos || slash == 0 || slash + 1 == ref.size())
    return set_status(st, fmt::format("':task {}': expected JOB/TASK", shown_id(ref)),
                      StatusLevel::Error);
  std::string job = ref.substr(0, slash), task = ref.substr(slash + 1);
  auto t = ctx.store->task(account, job, task);
  if (!t || !t->has_value()) return say_unknown(st, "task", ref, account);
  st.top().job = job;
  open_view(ctx, st, View::Tasks);
  Frame detail = st.top();
  detail.view = View::Detail;
  detail.task = task;
  detail.cursor = {};
  st.stack.push_back(std::move(detail));
  focused_pane(st).entered(ctx, st);
}

void jump_to_pool(AppContext& ctx, TuiState& st, const std::string& pool) {
  const std::string account = st.top().account;
  auto pools = ctx.store->pools(account);
  bool known = pools && std::any_of(pools->begin(), pools->end(),
                                    [&](const Pool& p) { return p.id == pool; });
  if (!known) return say_unknown(st, "pool", pool, account);
  st.top().pool = pool;
  open_view(ctx, st, View::Nodes);
}

}  // namespace trainyard
