// Marks (Space) in the table panes, and the actions that take every marked row after one
// confirmation: they run together on the worker the one-row action runs on, and one status
// line says how many worked.
#include "tui_marks.hpp"

#include <algorithm>
#include <functional>

#include <fmt/format.h>

#include "bulk_action.hpp"
#include "core/sanitizer.hpp"
#include "tui_batch.hpp"
#include "tui_bulk_spec.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

const BulkSpec* find_spec(const TuiState& st, Action a) {
  const Frame& f = st.stack.back();
  for (const auto& s : focused_pane(st).bulk_specs(f.account == kLocalAccount))
    if (s.action == a) return &s;
  return nullptr;
}

// True when some action of the focused pane takes marked rows (a local account's Jobs pane,
// the Grep pane: none does, so Space there would mark for nothing).
bool markable(const TuiState& st) {
  return !focused_pane(st).bulk_specs(st.stack.back().account == kLocalAccount).empty();
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

const std::vector<BulkSpec>& Pane::bulk_specs(bool) const {
  static const std::vector<BulkSpec> none;
  return none;
}

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
  const BulkSpec* spec = find_spec(st, a);
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
