// Marks (Space) in the table panes, and the actions that take every marked row after one
// confirmation: they run together on the worker the one-row action runs on, and one status
// line says how many worked.
#include "tui_marks.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "bulk_action.hpp"
#include "core/sanitizer.hpp"
#include "local/task_environment.hpp"
#include "tui_batch.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// What marks do to one pane's action.
struct BulkSpec {
  View view;
  Action action;
  bool local;        ///< on the local account (else on a Batch one)
  const char* verb;  ///< `Stop`: the question's first word, lowercase the outcome's
  const char* noun;  ///< `run` (a plural adds `s`)
  const char* note;  ///< what the question adds (`Their process groups get SIGTERM…`)
  /// One row's action (local or Batch, as `local` says).
  std::function<LocalAction(const Frame&, const std::string&)> local_action;
  std::function<BatchAction(const Frame&, const std::string&)> batch_action;
  /// Every row in one request (nodes leave their pool together, as one resize).
  std::function<BatchAction(const Frame&, const std::vector<std::string>&)> all_at_once;
  const char* refusal = nullptr;  ///< set: the action takes one row at a time
};

std::vector<BulkSpec> local_specs() {
  using F = const Frame&;
  using K = const std::string&;
  return {
      {View::Tasks, Action::Stop, true, "Stop", "run",
       "Their process groups get SIGTERM, then SIGKILL after 10 s.",
       [](F f, K k) { return act::stop_run(f.job, k); }},
      {View::Tasks, Action::Remove, true, "Remove", "run", "Their files go too; running ones stay.",
       [](F f, K k) { return act::remove_run(f.job, k); }},
      {View::Tasks, Action::Reactivate, true, "Retry", "run",
       "Each finished one is queued again as its next attempt.",
       [](F f, K k) { return act::reactivate_run(f.job, k, current_environment()); }},
  };
}

BulkSpec batch_spec(View v, Action a, const char* verb, const char* noun, const char* note,
                    std::function<BatchAction(const Frame&, const std::string&)> one) {
  return {v, a, false, verb, noun, note, {}, std::move(one)};
}

std::vector<BulkSpec> batch_specs() {
  using F = const Frame&;
  using K = const std::string&;
  using V = View;
  using A = Action;
  std::vector<BulkSpec> s{
      batch_spec(V::Tasks, A::Stop, "Terminate", "task", "",
                 [](F f, K k) { return act::terminate_task(f.job, k); }),
      batch_spec(V::Tasks, A::Remove, "Delete", "task", "Their files on the nodes go too.",
                 [](F f, K k) { return act::delete_task(f.job, k); }),
      batch_spec(V::Tasks, A::Reactivate, "Retry", "task", "",
                 [](F f, K k) { return act::reactivate_task(f.job, k); }),
      batch_spec(V::Jobs, A::Terminate, "Terminate", "job", "Their running tasks are stopped.",
                 [](F, K k) { return act::terminate_job(k); }),
      batch_spec(V::Jobs, A::Delete, "Delete", "job", "With all their tasks and their files.",
                 [](F, K k) { return act::delete_job(k); }),
      batch_spec(V::Nodes, A::Reboot, "Reboot", "node", "Tasks running there are requeued.",
                 [](F f, K k) { return act::reboot_node(f.pool, k); }),
      batch_spec(V::Nodes, A::Reimage, "Reimage", "node", "Tasks running there are requeued.",
                 [](F f, K k) { return act::reimage_node(f.pool, k); }),
      batch_spec(V::Pools, A::StopResize, "Stop resizing", "pool", "",
                 [](F, K k) { return act::stop_resize_pool(k); }),
      batch_spec(V::Pools, A::DisableAutoscale, "Disable autoscale of", "pool", "",
                 [](F, K k) { return act::disable_autoscale(k); }),
  };
  BulkSpec remove{V::Nodes, A::Delete,
                  false,    "Remove",
                  "node",   "Tasks running there are requeued; the pool's target drops."};
  remove.all_at_once = [](F f, const std::vector<std::string>& keys) {
    return act::remove_nodes(f.pool, keys);
  };
  s.push_back(std::move(remove));
  BulkSpec pool_delete{V::Pools, A::Delete, false, "Delete", "pool", ""};
  pool_delete.refusal = "pools are deleted one at a time (each asks for its id): unmark them first";
  s.push_back(std::move(pool_delete));
  return s;
}

const std::vector<BulkSpec>& specs(bool local) {
  static const std::vector<BulkSpec> local_table = local_specs(), batch_table = batch_specs();
  return local ? local_table : batch_table;
}

const BulkSpec* find_spec(View v, Action a, bool local) {
  for (const auto& s : specs(local))
    if (s.view == v && s.action == a) return &s;
  return nullptr;
}

// True when some action of the focused pane takes marked rows (a local account's Jobs pane,
// the Grep pane: none does, so Space there would mark for nothing).
bool markable(const TuiState& st) {
  const Frame& f = st.stack.back();
  for (const auto& s : specs(f.account == kLocalAccount))
    if (s.view == f.view) return true;
  return false;
}

std::string counted(size_t n, const char* noun) {
  return fmt::format("{} {}{}", n, noun, n == 1 ? "" : "s");
}

std::string lowercase_first(std::string text) {
  if (!text.empty()) text[0] = static_cast<char>(std::tolower(static_cast<unsigned char>(text[0])));
  return text;
}

// `a, b, c` for the question: the rows it will act on, the first few by name.
std::string named_rows(const std::vector<std::string>& keys) {
  constexpr size_t kNamed = 5;
  std::string text;
  for (size_t i = 0; i < keys.size() && i < kNamed; ++i)
    text += (i ? ", " : "") + sanitize_text(keys[i]);
  if (keys.size() > kNamed) text += fmt::format(" and {} more", keys.size() - kNamed);
  return text;
}

// The spec's action over `keys`, queued on the account's worker (the local engine's thread, or
// the Batch account's command runner).
void run_on_marked(AppContext& ctx, TuiState& st, const BulkSpec& spec,
                   const std::vector<std::string>& keys) {
  const Frame f = st.top();
  const std::string what = lowercase_first(spec.verb) + " " + counted(keys.size(), spec.noun);
  if (spec.local) {
    std::vector<std::pair<std::string, LocalAction>> runs;
    for (const auto& k : keys) runs.emplace_back(k, spec.local_action(f, k));
    return run_local(st, act::for_each_run(what, std::move(runs)).run);
  }
  if (spec.all_at_once) return queue_action(ctx, st, spec.all_at_once(f, keys));
  std::vector<std::pair<std::string, BatchAction>> rows;
  for (const auto& k : keys) rows.emplace_back(k, spec.batch_action(f, k));
  queue_action(ctx, st, act::for_each_row(what, std::move(rows)));
}

}  // namespace

std::vector<std::string> marked_rows(const TuiState& st) {
  if (st.table.marks.frame != frame_key(st.stack.back())) return {};
  return st.table.marks.keys;
}

void toggle_row_mark(TuiState& st) {
  if (!markable(st))
    return set_status(st, "no action of this pane takes marked rows: they act on the selected one");
  auto key = selected_key(st);
  if (!key) return;
  auto frame = frame_key(st.top());
  if (st.table.marks.frame != frame) st.table.marks = {frame, {}};
  auto& keys = st.table.marks.keys;
  auto it = std::find(keys.begin(), keys.end(), *key);
  bool marking = it == keys.end();
  if (marking)
    keys.push_back(*key);
  else
    keys.erase(it);
  set_status(st,
             sanitize_text(fmt::format("{} {}{}", marking ? "marked" : "unmarked", *key,
                                       keys.empty() ? "" : " · actions take every marked row")));
}

void clear_marks(TuiState& st) {
  st.table.marks = {};
}

// A sub-pane opened over the marked rows (`y`, logs, details) keeps them for the way back.
void forget_marks_elsewhere(TuiState& st) {
  if (st.table.marks.frame.empty()) return;
  for (const auto& f : st.stack)
    if (frame_key(f) == st.table.marks.frame) return;
  clear_marks(st);
}

std::string marks_note(const TuiState& st) {
  auto n = marked_rows(st).size();
  return n ? fmt::format("{} marked", n) : "";
}

void add_marks_note(const TuiState& st, StatusBarVm& vm) {
  auto note = marks_note(st);
  if (note.empty()) return;
  vm.note = vm.note.empty() ? note : note + " · " + vm.note;
}

// A one-cell column before the others holds the marks, so no id is cut to make room.
void show_marks(TableVm& vm, const std::vector<std::string>& keys, const TuiState& st) {
  auto marked = marked_rows(st);
  if (marked.empty()) return;
  vm.columns.insert(vm.columns.begin(), Column{"", 1});
  for (size_t i = 0; i < vm.rows.size(); ++i) {
    bool on = i < keys.size() && std::find(marked.begin(), marked.end(), keys[i]) != marked.end();
    auto& cells = vm.rows[i].cells;
    cells.insert(cells.begin(), on ? TableCell{"\u25cf", Role::Title} : TableCell{});
  }
}

bool apply_to_marked(AppContext& ctx, TuiState& st, Action a) {
  auto keys = marked_rows(st);
  if (keys.empty()) return false;
  const BulkSpec* spec = find_spec(st.top().view, a, st.top().account == kLocalAccount);
  if (!spec) return false;
  if (spec->refusal) return set_status(st, spec->refusal, StatusLevel::Error), true;
  if (!spec->local && !account_writable(ctx, st)) return true;
  std::string question =
      fmt::format("{} {} ({})?", spec->verb, counted(keys.size(), spec->noun), named_rows(keys));
  if (*spec->note) question += std::string(" ") + spec->note;
  st.modal.confirm = DialogVm{fmt::format("{} {}s", spec->verb, spec->noun), question};
  st.modal.on_confirm = [&ctx, &st, spec, keys] {
    run_on_marked(ctx, st, *spec, keys);
    clear_marks(st);
  };
  st.modal.mode = Mode::Confirm;
  return true;
}

}  // namespace trainyard
