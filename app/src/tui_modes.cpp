// Modal input: the filter line, the command line, log search, forms (the run form:
// tui_run_form.cpp), confirm, help.
#include <map>

#include <fmt/format.h>

#include "local/process.hpp"
#include "local/task_environment.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

// Command names and aliases (k9s-style), as data.
const std::map<std::string, std::string>& command_aliases() {
  static const std::map<std::string, std::string> aliases{
      {"accounts", "accounts"}, {"acc", "accounts"}, {"pools", "pools"},
      {"pool", "pools"},        {"po", "pools"},     {"nodes", "nodes"},
      {"no", "nodes"},          {"jobs", "jobs"},    {"job", "jobs"},
      {"jo", "jobs"},           {"tasks", "tasks"},  {"task", "tasks"},
      {"ta", "tasks"},          {"gpus", "gpus"},    {"gpu", "gpus"},
      {"run", "run"},           {"q", "quit"},       {"quit", "quit"},
      {"help", "help"},         {"sweep", "sweep"},  {"sw", "sweep"},
      {"submit", "submit"},     {"su", "submit"},
  };
  return aliases;
}

void handle_filter(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  (void)ctx;
  auto r = st.input.handle(key);
  auto& c = st.top().cursor;
  if (r == Reaction::Cancel) {
    c.filter.clear();
    st.mode = Mode::Normal;
  } else if (r == Reaction::Submit) {
    st.mode = Mode::Normal;
  } else {
    c.filter = st.input.text();
  }
  c.selected = c.first = 0;
}

void handle_command(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  if (key.key == Key::Tab) {
    auto matches = complete_command(st.input.text());
    if (matches.size() == 1) st.input.set_text(matches.front());
    return;
  }
  auto r = st.input.handle(key);
  if (r == Reaction::Cancel) st.mode = Mode::Normal;
  if (r != Reaction::Submit) return;
  st.mode = Mode::Normal;
  run_command_line(ctx, st, st.input.text());
}

void handle_search(TuiState& st, const KeyEvent& key) {
  auto r = st.input.handle(key);
  if (r == Reaction::Cancel) st.mode = Mode::Normal;
  if (r != Reaction::Submit) return;
  st.mode = Mode::Normal;
  log_state(st).search = st.input.text();
  log_state(st).match.reset();  // a new query starts from the top of the screen
  log_search(st, true);
}

void handle_form(TuiState& st, const KeyEvent& key) {
  if (handle_form_hook_key(st, key)) return;
  auto r = st.form->handle(key);
  if (r == Reaction::Cancel) {
    close_form(st);
  } else if (r == Reaction::Submit && st.on_form_submit) {
    auto submit = std::move(st.on_form_submit);
    auto form = std::move(*st.form);
    close_form(st);
    submit(form);
  } else if (r == Reaction::Submit) {
    submit_run_form(st);
  }
}

void handle_confirm(TuiState& st, const KeyEvent& key) {
  auto r = handle_dialog_key(*st.confirm, key);
  // Only the first button (Yes) acts; Enter on the default No must change nothing.
  if (r == Reaction::Submit && st.confirm->focused == 0 && st.on_confirm) st.on_confirm();
  if (r == Reaction::Submit || r == Reaction::Cancel) {
    st.confirm.reset();
    st.on_confirm = nullptr;
    st.mode = Mode::Normal;
  }
}

}  // namespace

std::vector<std::string> complete_command(const std::string& prefix) {
  std::vector<std::string> out;
  for (const auto& [name, target] : command_aliases()) {
    if (name == target && name.rfind(prefix, 0) == 0) out.push_back(name);
  }
  return out;
}

void run_command_line(AppContext& ctx, TuiState& st, const std::string& text) {
  auto it = command_aliases().find(text);
  if (it == command_aliases().end())
    return set_status(
        st,
        fmt::format("unknown command ':{}' (try :jobs :tasks :pools :gpus :run :submit :sweep :q)",
                    text),
        StatusLevel::Error);
  const auto& cmd = it->second;
  st.action_label = ":" + cmd;
  if (cmd == "quit")
    st.quit = true;
  else if (cmd == "help")
    st.mode = Mode::Help;
  else if (cmd == "run")
    open_run_form(st);
  else if (cmd == "submit")
    open_submit_prompt(ctx, st);
  else if (cmd == "sweep")
    open_sweep(ctx, st, std::nullopt);
  else if (cmd == "accounts")
    open_view(ctx, st, View::Accounts);
  else if (cmd == "pools")
    open_view(ctx, st, View::Pools);
  else if (cmd == "nodes")
    open_view(ctx, st, View::Nodes);
  else if (cmd == "jobs")
    open_view(ctx, st, View::Jobs);
  else if (cmd == "tasks")
    open_view(ctx, st, View::Tasks);
  else if (cmd == "gpus")
    open_view(ctx, st, View::Gpus);
}

void handle_mode_key(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  switch (st.mode) {
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
      st.mode = Mode::Normal;
      break;
    case Mode::Normal:
      break;
  }
}

}  // namespace trainyard
