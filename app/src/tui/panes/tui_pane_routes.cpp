// How each pane is reached: the parents a pane opens over, the keys and `:` commands that open
// it, and the jumps to one job, task or pool.
#include "tui_pane_routes.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tui_state.hpp"

namespace trainyard {
namespace {

// A pane opened by name or key from anywhere, and what stands under it on the stack.
struct PaneRoute {
  View view;
  std::optional<Action> key;  ///< the key that opens it from anywhere
  std::optional<View> under;  ///< the pane Esc returns to, over the accounts
  bool root = false;          ///< the stack's first frame (the accounts, the GPUs)
};

constexpr PaneRoute kRoutes[] = {
    {View::Accounts, Action::Accounts, std::nullopt, true},
    {View::Gpus, Action::Gpus, std::nullopt, true},
    {View::Pools, Action::Pools, std::nullopt},
    {View::Jobs, Action::Jobs, std::nullopt},
    {View::Nodes, std::nullopt, View::Pools},
    {View::Tasks, Action::Tasks, View::Jobs},
};

constexpr std::pair<Action, View> kSubPanes[] = {
    {Action::Detail, View::Detail},
    {Action::Logs, View::Logs},
    {Action::Outputs, View::Outputs},
};

// A pane without a route of its own (`--view sweep`) opens straight over the accounts.
PaneRoute route_of(View v) {
  for (const auto& r : kRoutes)
    if (r.view == v) return r;
  return {v, std::nullopt, std::nullopt};
}

// The pane `v` over the accounts (and its parent), for the account, pool and job in focus.
void open_view(AppContext& ctx, TuiState& st, View v) {
  const PaneRoute route = route_of(v);
  Frame f = make_frame(route.view, st.top().account);
  f.job = st.top().job;
  f.pool = st.top().pool.empty() ? default_pool(ctx, f.account) : st.top().pool;
  // The Tasks pane always shows one job; the local engine's runs without one are in `default`.
  if (route.view == View::Tasks && f.job.empty()) f.job = "default";
  st.stack.resize(1);
  if (route.root) {
    st.stack.front() = f;
    return;
  }
  st.stack.front() = home_frame(f.account);
  if (route.under) st.stack.push_back(make_frame(*route.under, f.account));
  st.stack.push_back(f);
}

// Over the pane it was opened from, so that Esc and q (its hint bar's `back`) return there.
void open_all_accounts(AppContext& ctx, TuiState& st, View v) {
  if (st.top().view == v) return;
  st.stack.push_back(make_frame(v, st.top().account));
  focused_pane(st).entered(ctx, st);
}

TuiCommand pane(std::string name, std::vector<std::string> aliases, View v, std::string help,
                std::function<void(AppContext&, TuiState&, const std::string&)> jump = {}) {
  return {std::move(name), std::move(aliases),
          [v](AppContext& ctx, TuiState& st) { open_view(ctx, st, v); }, std::move(help),
          std::move(jump)};
}

TuiCommand all_accounts(std::string name, std::string alias, View v) {
  return {std::move(name),
          {std::move(alias)},
          [v](AppContext& ctx, TuiState& st) { open_all_accounts(ctx, st, v); },
          ""};
}

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

Frame home_frame(std::string account) {
  return make_frame(View::Accounts, std::move(account));
}

void open_pane_named(AppContext& ctx, TuiState& st, const std::string& name) {
  open_view(ctx, st, st.panes.by_name(name));
}

bool open_pane_by_key(AppContext& ctx, TuiState& st, Action a) {
  for (const auto& r : kRoutes)
    if (r.key == a) return open_view(ctx, st, r.view), true;
  return false;
}

bool open_sub_pane_by_key(AppContext& ctx, TuiState& st, Action a) {
  for (const auto& [action, view] : kSubPanes) {
    if (action != a) continue;
    Frame next = st.top();
    if (!focused_pane(st).select_for_detail(st, next)) return true;
    next.view = view;
    push_frame(ctx, st, next);
    return true;
  }
  return false;
}

std::vector<TuiCommand> pane_commands() {
  return {
      pane("jobs", {"job", "jo"}, View::Jobs, "jobs", jump_to_job),
      pane("tasks", {"task", "ta"}, View::Tasks, "tasks", jump_to_task),
      pane("pools", {"pool", "po"}, View::Pools, "pools", jump_to_pool),
      pane("gpus", {"gpu"}, View::Gpus, "gpus"),
      pane("accounts", {"acc"}, View::Accounts, ""),
      pane("nodes", {"no"}, View::Nodes, ""),
      all_accounts("alljobs", "aj", View::AllJobs),
      all_accounts("allpools", "ap", View::AllPools),
  };
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
