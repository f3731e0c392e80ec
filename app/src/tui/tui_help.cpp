#include "tui_help.hpp"

#include <algorithm>

#include "key_config.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

constexpr Context kHelpOrder[] = {
    Context::Global, Context::Table, Context::Accounts, Context::Pools,   Context::Nodes,
    Context::Jobs,   Context::Tasks, Context::Sweep,    Context::Compare, Context::Logs,
    Context::Detail, Context::Json,  Context::Columns,  Context::Storage, Context::Outputs};

HelpSection plugins_section(const Settings& settings) {
  HelpSection s{"Plugins", {}};
  for (const auto& p : settings.plugins) {
    std::string panes;
    for (const auto& name : p.panes) panes += (panes.empty() ? "" : ", ") + name;
    s.entries.push_back({p.key, "runs " + p.name + " (" + panes + ")", p.name});
  }
  return s;
}

}  // namespace

HelpVm help_of(const AppContext& ctx, const TuiState& st) {
  HelpVm vm;
  for (Context c : kHelpOrder) {
    HelpSection s{context_name(c), {}};
    for (const auto& b : st.bindings)
      if (b.context == c) s.entries.push_back({b.chord, b.description, action_id(b.action)});
    if (!s.entries.empty()) vm.sections.push_back(std::move(s));
  }
  auto plugins = plugins_section(ctx.settings);
  if (!plugins.entries.empty()) vm.sections.push_back(std::move(plugins));
  vm.first = st.modal.help.top;
  return vm;
}

HintBarVm hints_of(const TuiState& st, const Pane& pane) {
  HintBarVm vm;
  for (Context c : pane.contexts())
    for (const auto& b : st.bindings)
      if (b.context == c && b.hint) {
        bool back = b.action == Action::Quit && pane.quits_back();
        vm.hints.push_back({b.chord, back ? "back" : action_name(pane, b.action)});
      }
  return vm;
}

// Scrolls by lines and pages as the last draw laid the help out; G shows a full last page.
void handle_help_key(const AppContext&, TuiState& st, const KeyEvent& key) {
  const long last = static_cast<long>(st.modal.help.max_top);
  const long page = std::max(1L, static_cast<long>(st.modal.help.per_page));
  long top = static_cast<long>(st.modal.help.top);
  auto name = key_name(key);
  if (name == "j" || name == "Down")
    ++top;
  else if (name == "k" || name == "Up")
    --top;
  else if (name == "NPage" || name == "Space")
    top += page;
  else if (name == "PPage")
    top -= page;
  else if (name == "g" || name == "Home")
    top = 0;
  else if (name == "G" || name == "End")
    top = last;
  else {
    st.modal.help.top = 0;
    st.modal.mode = Mode::Normal;
    return;
  }
  st.modal.help.top = static_cast<size_t>(std::clamp(top, 0L, last));
}

}  // namespace trainyard
