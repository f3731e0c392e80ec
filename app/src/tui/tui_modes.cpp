// Modal input: the filter line, the command line, log search, forms (the run form:
// tui_run_form.cpp), confirm, help.
#include "local/process.hpp"
#include "local/task_environment.hpp"
#include "tui_help.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

void handle_filter(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  (void)ctx;
  auto r = st.modal.input.handle(key);
  auto& c = st.top().cursor;
  if (r == Reaction::Cancel) {
    c.filter.clear();
    st.modal.mode = Mode::Normal;
  } else if (r == Reaction::Submit) {
    st.modal.mode = Mode::Normal;
  } else {
    c.filter = st.modal.input.text();
  }
  c.selected = c.first = 0;
  // The reader matches nothing with an invalid filter; the status line says why until it is
  // valid again.
  auto parsed = parse_row_filter(c.filter);
  if (!parsed) return set_status(st, parsed.error().message, StatusLevel::Error);
  if (st.status.level == StatusLevel::Error && st.status.message.rfind(kBadFilter, 0) == 0)
    st.status.message.clear();
}

// Tab puts the first command that starts with the text in the command line, and the next one
// on each further Tab (BackTab: the one before), round the list.
void cycle_completion(TuiState& st, bool forward) {
  auto& m = st.modal;
  if (const auto* cycling = cycled_completions(st)) {
    size_t n = cycling->size();
    m.completion = (m.completion + (forward ? 1 : n - 1)) % n;
  } else {
    m.completions = complete_command(m.input.text());
    if (m.completions.empty()) return set_status(st, "no command starts with that");
    m.completion = forward ? 0 : m.completions.size() - 1;
  }
  m.input.set_text(m.completions[m.completion]);
}

void handle_command(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  if (key.key == Key::Tab || key.key == Key::BackTab)
    return cycle_completion(st, key.key == Key::Tab);
  auto r = st.modal.input.handle(key);
  if (r == Reaction::Cancel) st.modal.mode = Mode::Normal;
  if (r != Reaction::Submit) return;
  st.modal.mode = Mode::Normal;
  run_command_line(ctx, st, st.modal.input.text());
}

void handle_search(TuiState& st, const KeyEvent& key) {
  auto r = st.modal.input.handle(key);
  if (r == Reaction::Cancel) st.modal.mode = Mode::Normal;
  if (r != Reaction::Submit) return;
  st.modal.mode = Mode::Normal;
  focused_pane(st).search_for(st, st.modal.input.text());
}

void handle_form(TuiState& st, const KeyEvent& key) {
  if (handle_form_hook_key(st, key)) return;
  auto r = st.modal.form->handle(key);
  if (r == Reaction::Cancel) {
    close_form(st);
  } else if (r == Reaction::Submit && st.modal.on_form_submit) {
    auto submit = std::move(st.modal.on_form_submit);
    auto form = std::move(*st.modal.form);
    close_form(st);
    submit(form);
  } else if (r == Reaction::Submit) {
    submit_run_form(st);
  }
}

void handle_confirm(TuiState& st, const KeyEvent& key) {
  auto r = handle_dialog_key(*st.modal.confirm, key);
  // Only the first button (Yes) acts; Enter on the default No must change nothing.
  bool yes = r == Reaction::Submit && st.modal.confirm->focused == 0;
  if (yes && st.modal.on_confirm) st.modal.on_confirm();
  // A question that changed nothing says so, as Esc and Enter on No both end it silently else.
  if (!yes && (r == Reaction::Submit || r == Reaction::Cancel))
    set_status(st, st.modal.confirm->title + ": cancelled");
  if (r == Reaction::Submit || r == Reaction::Cancel) {
    st.modal.confirm.reset();
    st.modal.on_confirm = nullptr;
    st.modal.mode = Mode::Normal;
  }
}

}  // namespace

void handle_mode_key(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  switch (st.modal.mode) {
    case Mode::Filter:
      handle_filter(ctx, st, key);
      break;
    case Mode::Command:
      handle_command(ctx, st, key);
      break;
    case Mode::Search:
      handle_search(st, key);
      break;
    case Mode::SubmitPath:
      handle_submit_key(ctx, st, key);
      break;
    case Mode::Form:
      handle_form(st, key);
      break;
    case Mode::Confirm:
      handle_confirm(st, key);
      break;
    case Mode::Help:
      handle_help_key(ctx, st, key);
      break;
    case Mode::Normal:
      break;
  }
}

}  // namespace trainyard
