// The `:` commands (k9s-style): each pane by name and short forms, and the run form, submit,
// sweep, help and quit.
#include "tui_commands.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "tui_compare.hpp"
#include "tui_grep.hpp"
#include "tui_pane_routes.hpp"
#include "tui_sort.hpp"
#include "tui_state.hpp"
#include "tui_storage.hpp"
#include "tui_table_keys.hpp"

namespace trainyard {
namespace {

std::vector<TuiCommand> make_commands() {
  std::vector<TuiCommand> c = pane_commands();
  c.push_back({"run", {}, [](AppContext& ctx, TuiState& st) { open_run_form(ctx, st); }, "run"});
  c.push_back({"submit", {"su"}, open_submit_prompt, "submit"});
  c.push_back({"sweep",
               {"sw"},
               [](AppContext& ctx, TuiState& st) { open_sweep(ctx, st, std::nullopt); },
               "sweep"});
  c.push_back({"compare", {"cmp"}, open_compare, "compare"});
  c.push_back({"grep", {}, nullptr, "grep PATTERN", grep_command});
  c.push_back({"save", {}, nullptr, "save PATH", save_log_command});
  c.push_back({"storage",
               {"st"},
               [](AppContext& ctx, TuiState& st) { open_storage_pane(ctx, st, ""); },
               "storage",
               open_storage_pane});
  c.push_back({"quit", {"q"}, [](AppContext&, TuiState& st) { st.quit = true; }, "q"});
  c.push_back(
      {"sort", {}, nullptr, "sort COLUMN", [](AppContext&, TuiState& st, const std::string& args) {
         sort_command(st, args);
       }});
  c.push_back({"help", {}, [](AppContext&, TuiState& st) { st.modal.mode = Mode::Help; }, ""});
  c.push_back({"columns", {"cols"}, open_column_chooser, ""});
  c.push_back({"wide", {}, [](AppContext&, TuiState& st) { toggle_wide(st); }, ""});
  return c;
}

bool answers_to(const TuiCommand& c, const std::string& text) {
  return c.name == text || std::find(c.aliases.begin(), c.aliases.end(), text) != c.aliases.end();
}

// `save out.log ` → {"save", "out.log"}: the name, and the rest without its outer spaces.
std::pair<std::string, std::string> split_command(const std::string& text) {
  auto space = text.find(' ');
  if (space == std::string::npos) return {text, ""};
  auto rest = text.find_first_not_of(' ', space);
  if (rest == std::string::npos) return {text.substr(0, space), ""};
  return {text.substr(0, space), text.substr(rest, text.find_last_not_of(' ') + 1 - rest)};
}

}  // namespace

const std::vector<TuiCommand>& tui_commands() {
  static const std::vector<TuiCommand> commands = make_commands();
  return commands;
}

const TuiCommand* find_tui_command(const std::string& text) {
  for (const auto& c : tui_commands())
    if (answers_to(c, text)) return &c;
  return nullptr;
}

std::string listed_commands() {
  std::string out;
  for (const auto& c : tui_commands())
    if (!c.help.empty()) out += (out.empty() ? ":" : " :") + c.help;
  return out;
}

// Two-letter aliases (`jo`) are shorthands to type, not words to offer.
std::vector<std::string> complete_command(const std::string& prefix) {
  std::vector<std::string> out;
  auto offer = [&](const std::string& word) {
    if (word.rfind(prefix, 0) == 0) out.push_back(word);
  };
  for (const auto& c : tui_commands()) {
    offer(c.name);
    for (const auto& alias : c.aliases)
      if (alias.size() >= 3) offer(alias);
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

const std::vector<std::string>* cycled_completions(const TuiState& st) {
  const auto& m = st.modal;
  if (m.completions.empty() || m.completion >= m.completions.size()) return nullptr;
  return m.input.text() == m.completions[m.completion] ? &m.completions : nullptr;
}

// `job train`: the command's name, then its argument (what follows the first run of spaces).
void run_command_line(AppContext& ctx, TuiState& st, const std::string& text) {
  auto [name, args] = split_command(text);
  const TuiCommand* c = find_tui_command(name);
  if (!c)
    return set_status(st, fmt::format("unknown command ':{}' (try {})", name, listed_commands()),
                      StatusLevel::Error);
  st.notes.action_label = ":" + c->name;
  if (args.empty() && c->run) return c->run(ctx, st);
  if (!c->run_with)
    return set_status(st, fmt::format("':{}' takes no argument", c->name), StatusLevel::Error);
  c->run_with(ctx, st, args);
}

}  // namespace trainyard
