// What the keymap's actions do in the normal mode.
#include <fmt/format.h>

#include "local_action.hpp"
#include "tui_action_routes.hpp"
#include "tui_compare.hpp"
#include "tui_costs.hpp"
#include "tui_services.hpp"
#include "tui_sort.hpp"
#include "tui_state.hpp"
#include "tui_table_keys.hpp"
#include "widgets/table.hpp"

namespace trainyard {

void push_frame(AppContext& ctx, TuiState& st, Frame next) {
  next.cursor = {};
  st.stack.push_back(std::move(next));
  focused_pane(st).entered(ctx, st);
}

namespace {

void drill_in(AppContext& ctx, TuiState& st) {
  auto key = selected_key(st);
  if (!key) return;
  if (auto next = focused_pane(st).drill(st.top(), *key)) push_frame(ctx, st, *next);
}

void confirm_stop(TuiState& st) {
  std::string job = st.top().job;
  auto selected = focused_pane(st).selected_task(st);
  if (!selected) return;
  std::string task = *selected;
  if (st.top().account != kLocalAccount)
    return set_status(st, "stop: only local runs for now", StatusLevel::Error);
  st.confirm =
      DialogVm{"Stop task",
               fmt::format("Stop {}/{}? Its process group gets SIGTERM, then SIGKILL after 10 s.",
                           job, task)};
  st.on_confirm = [&st, job, task] { run_local(st, act::stop_run(job, task).run); };
  st.mode = Mode::Confirm;
}

void confirm_remove(TuiState& st) {
  auto key = selected_key(st);
  if (!key) return;
  std::string job = st.top().job, task = *key;
  st.confirm = DialogVm{"Remove run", fmt::format("Remove {}/{} and its files?", job, task)};
  st.on_confirm = [&st, job, task] { run_local(st, act::remove_run(job, task).run); };
  st.mode = Mode::Confirm;
}

// Quitting stops no node: one that idles on a dedicated node bills on, so that is said first.
void confirm_quit(TuiState& st) {
  auto idle = idle_billing_warning(st);
  if (!idle) {
    st.quit = true;
    return;
  }
  st.confirm = DialogVm{"Quit", fmt::format("Still billing: {}. Quit anyway?", *idle)};
  st.on_confirm = [&st] { st.quit = true; };
  st.mode = Mode::Confirm;
}

void open_detail(AppContext& ctx, TuiState& st, View target) {
  Frame next = st.top();
  if (!focused_pane(st).select_for_detail(st, next)) return;
  next.view = target;
  push_frame(ctx, st, next);
}

void go_back(TuiState& st) {
  if (st.stack.size() > 1)
    st.stack.pop_back();
  else
    st.top().cursor.filter.clear();
}

// Esc as k9s has it: a filter is cleared first; the pane is left only when none is applied.
void clear_filter_or_back(TuiState& st) {
  auto& filter = st.top().cursor.filter;
  if (filter.empty()) return go_back(st);
  filter.clear();
  set_status(st, "filter cleared (Esc again goes back)");
}

}  // namespace

// The outcome names the pane and action it came from, even when the user has moved on since.
void run_local(TuiState& st, LocalWorker::Action action) {
  st.local->submit(std::move(action),
                   [&st, origin = status_origin(st)](const Result<std::string>& r) {
                     set_status_from(st, origin, r ? *r : r.error().message,
                                     r ? StatusLevel::Ok : StatusLevel::Error);
                   });
}

void open_view(AppContext& ctx, TuiState& st, View v) {
  Frame f;
  f.view = v;
  f.account = st.top().account;
  f.job = st.top().job;
  f.pool = st.top().pool.empty() ? default_pool(ctx, f.account) : st.top().pool;
  if (v == View::Tasks && f.job.empty()) f.job = "default";
  st.stack.resize(1);
  if (v != View::Accounts && v != View::Gpus)
    st.stack.front() = make_frame(View::Accounts, f.account);
  if (v == View::Nodes) st.stack.push_back(make_frame(View::Pools, f.account));
  if (v == View::Tasks) st.stack.push_back(make_frame(View::Jobs, f.account));
  if (v == View::Gpus)
    st.stack.front() = f;
  else if (v != View::Accounts)
    st.stack.push_back(f);
}

void move_selection(TuiState& st, long delta) {
  auto& c = st.top().cursor;
  if (st.page.total == 0) return;
  long next = static_cast<long>(c.selected) + delta;
  next = std::clamp(next, 0L, static_cast<long>(st.page.total) - 1);
  c.selected = static_cast<size_t>(next);
  c.first = scroll_to_show(c.selected, c.first, st.body_height, st.page.total);
}

void apply_action(AppContext& ctx, TuiState& st, Action a) {
  auto& pane = focused_pane(st);
  st.action_label = action_name(pane, a);
  if (pane.act(ctx, st, a)) return;
  if (apply_to_marked(ctx, st, a) || table_key_action(ctx, st, a)) return;
  if (route_pane_action(ctx, st, a)) return;
  switch (a) {
    case Action::Quit:
      if (pane.quits_back())
        go_back(st);
      else
        confirm_quit(st);
      break;
    case Action::QuitNow:
      st.quit = true;
      break;
    case Action::Help:
      st.mode = Mode::Help;
      break;
    case Action::Back:
      clear_filter_or_back(st);
      break;
    case Action::Up:
      move_selection(st, -1);
      break;
    case Action::Down:
      move_selection(st, 1);
      break;
    case Action::Top:
      move_selection(st, -static_cast<long>(st.page.total));
      break;
    case Action::Bottom:
      move_selection(st, static_cast<long>(st.page.total));
      break;
    case Action::PageUp:
      move_selection(st, -st.body_height);
      break;
    case Action::PageDown:
      move_selection(st, st.body_height);
      break;
    case Action::Enter:
      if (pane.is_table()) drill_in(ctx, st);
      break;
    case Action::Filter:
      st.mode = Mode::Filter;
      st.input.set_text(st.top().cursor.filter);
      break;
    case Action::SortNext:
      if (pane.is_table()) sort_by_next_column(st);
      break;
    case Action::SortFlip:
      if (pane.is_table()) flip_sort(st);
      break;
    case Action::Command:
      st.mode = Mode::Command;
      st.input.set_text("");
      break;
    case Action::RunForm:
      open_run_form(ctx, st);
      break;
    case Action::Stop:
      confirm_stop(st);
      break;
    case Action::Remove:
      confirm_remove(st);
      break;
    case Action::Reactivate:
      retry_local_run(st);
      break;
    case Action::Detail:
      open_detail(ctx, st, View::Detail);
      break;
    case Action::Logs:
      open_detail(ctx, st, View::Logs);
      break;
    case Action::Outputs:
      if (st.top().account == kLocalAccount)
        set_status(st, "i is for Batch tasks: a local run's files are in its directory",
                   StatusLevel::Info);
      else
        open_detail(ctx, st, View::Outputs);
      break;
    case Action::Pools:
      open_view(ctx, st, View::Pools);
      break;
    case Action::Jobs:
      open_view(ctx, st, View::Jobs);
      break;
    case Action::Tasks:
      open_view(ctx, st, View::Tasks);
      break;
    case Action::Gpus:
      open_view(ctx, st, View::Gpus);
      break;
    case Action::Accounts:
      open_view(ctx, st, View::Accounts);
      break;
    case Action::Sweep:
      open_sweep(ctx, st, std::nullopt);
      break;
    case Action::Compare:
      toggle_compare_run(st);
      break;
    case Action::CompareOpen:
      open_compare(ctx, st);
      break;
    case Action::Pin:
      if (auto key = selected_key(st)) toggle_pin(st, *key);
      break;
    case Action::TensorBoard:
      open_tensorboard(st);
      break;
    case Action::Refresh:
      st.local->poke();
      poke_poller(st);
      break;
    default:
      break;
  }
}

}  // namespace trainyard
