// What the keymap's actions do in the normal mode.
#include <algorithm>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "local_action.hpp"
#include "tui_action_routes.hpp"
#include "tui_compare.hpp"
#include "tui_costs.hpp"
#include "tui_pane_routes.hpp"
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
  st.modal.confirm =
      DialogVm{"Stop task",
               fmt::format("Stop {}/{}? Its process group gets SIGTERM, then SIGKILL after 10 s.",
                           job, task)};
  st.modal.on_confirm = [&st, job, task] { run_local(st, act::stop_run(job, task).run); };
  st.modal.mode = Mode::Confirm;
}

void confirm_remove(TuiState& st) {
  auto key = selected_key(st);
  if (!key) return;
  std::string job = st.top().job, task = *key;
  st.modal.confirm = DialogVm{"Remove run", fmt::format("Remove {}/{} and its files?", job, task)};
  st.modal.on_confirm = [&st, job, task] { run_local(st, act::remove_run(job, task).run); };
  st.modal.mode = Mode::Confirm;
}

// Quitting stops no node: one that idles on a dedicated node bills on, so that is said first.
void confirm_quit(TuiState& st) {
  auto idle = idle_billing_warning(st);
  if (!idle) {
    st.quit = true;
    return;
  }
  st.modal.confirm = DialogVm{"Quit", fmt::format("Still billing: {}. Quit anyway?", *idle)};
  st.modal.on_confirm = [&st] { st.quit = true; };
  st.modal.mode = Mode::Confirm;
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
  st.work.local->submit(std::move(action),
                        [&st, origin = status_origin(st)](const Result<std::string>& r) {
                          set_status_from(st, origin, r ? *r : r.error().message,
                                          r ? StatusLevel::Ok : StatusLevel::Error);
                        });
}

void move_selection(TuiState& st, long delta) {
  auto& c = st.top().cursor;
  if (st.table.page.total == 0) return;
  long next = static_cast<long>(c.selected) + delta;
  next = std::clamp(next, 0L, static_cast<long>(st.table.page.total) - 1);
  c.selected = static_cast<size_t>(next);
  c.first = scroll_to_show(c.selected, c.first, st.table.body_height, st.table.page.total);
}

namespace {

// What each action does when neither the pane, the marks, the table keys nor a pane route
// took it: one handler per action.
using ActionHandler = void (*)(AppContext&, TuiState&);
const std::vector<std::pair<Action, ActionHandler>>& action_handlers() {
  static const std::vector<std::pair<Action, ActionHandler>> handlers{
      {Action::Quit,
       [](AppContext&, TuiState& st) {
         auto& pane = focused_pane(st);
         if (pane.quits_back())
           go_back(st);
         else
           confirm_quit(st);
       }},
      {Action::QuitNow, [](AppContext&, TuiState& st) { st.quit = true; }},
      {Action::Help, [](AppContext&, TuiState& st) { st.modal.mode = Mode::Help; }},
      {Action::Back, [](AppContext&, TuiState& st) { clear_filter_or_back(st); }},
      {Action::Up, [](AppContext&, TuiState& st) { move_selection(st, -1); }},
      {Action::Down, [](AppContext&, TuiState& st) { move_selection(st, 1); }},
      {Action::Top,
       [](AppContext&, TuiState& st) {
         move_selection(st, -static_cast<long>(st.table.page.total));
       }},
      {Action::Bottom,
       [](AppContext&, TuiState& st) {
         move_selection(st, static_cast<long>(st.table.page.total));
       }},
      {Action::PageUp,
       [](AppContext&, TuiState& st) { move_selection(st, -st.table.body_height); }},
      {Action::PageDown,
       [](AppContext&, TuiState& st) { move_selection(st, st.table.body_height); }},
      {Action::Enter,
       [](AppContext& ctx, TuiState& st) {
         auto& pane = focused_pane(st);
         if (pane.is_table()) drill_in(ctx, st);
       }},
      {Action::Filter,
       [](AppContext&, TuiState& st) {
         st.modal.mode = Mode::Filter;
         st.modal.input.set_text(st.top().cursor.filter);
       }},
      {Action::SortNext,
       [](AppContext&, TuiState& st) {
         auto& pane = focused_pane(st);
         if (pane.is_table()) sort_by_next_column(st);
       }},
      {Action::SortFlip,
       [](AppContext&, TuiState& st) {
         auto& pane = focused_pane(st);
         if (pane.is_table()) flip_sort(st);
       }},
      {Action::Command,
       [](AppContext&, TuiState& st) {
         st.modal.mode = Mode::Command;
         st.modal.input.set_text("");
       }},
      {Action::RunForm, [](AppContext& ctx, TuiState& st) { open_run_form(ctx, st); }},
      {Action::Stop, [](AppContext&, TuiState& st) { confirm_stop(st); }},
      {Action::Remove, [](AppContext&, TuiState& st) { confirm_remove(st); }},
      {Action::Reactivate, [](AppContext&, TuiState& st) { retry_local_run(st); }},
      {Action::Detail,
       [](AppContext& ctx, TuiState& st) { open_sub_pane_by_key(ctx, st, Action::Detail); }},
      {Action::Logs,
       [](AppContext& ctx, TuiState& st) { open_sub_pane_by_key(ctx, st, Action::Logs); }},
      {Action::Outputs,
       [](AppContext& ctx, TuiState& st) {
         if (st.top().account == kLocalAccount)
           set_status(st, "i is for Batch tasks: a local run's files are in its directory",
                      StatusLevel::Info);
         else
           open_sub_pane_by_key(ctx, st, Action::Outputs);
       }},
      {Action::Sweep, [](AppContext& ctx, TuiState& st) { open_sweep(ctx, st, std::nullopt); }},
      {Action::Compare, [](AppContext&, TuiState& st) { toggle_compare_run(st); }},
      {Action::CompareOpen, [](AppContext& ctx, TuiState& st) { open_compare(ctx, st); }},
      {Action::Pin,
       [](AppContext&, TuiState& st) {
         if (auto key = selected_key(st)) toggle_pin(st, *key);
       }},
      {Action::TensorBoard, [](AppContext&, TuiState& st) { open_tensorboard(st); }},
      {Action::Refresh,
       [](AppContext&, TuiState& st) {
         st.work.local->poke();
         refresh_poller(st);
       }},
  };
  return handlers;
}

}  // namespace

void apply_action(AppContext& ctx, TuiState& st, Action a) {
  auto& pane = focused_pane(st);
  st.notes.action_label = action_name(pane, a);
  if (pane.act(ctx, st, a)) return;
  if (apply_to_marked(ctx, st, a) || table_key_action(ctx, st, a)) return;
  if (route_pane_action(ctx, st, a) || open_pane_by_key(ctx, st, a)) return;
  const auto& handlers = action_handlers();
  auto it =
      std::find_if(handlers.begin(), handlers.end(), [a](const auto& h) { return h.first == a; });
  if (it != handlers.end()) it->second(ctx, st);
}

}  // namespace trainyard
