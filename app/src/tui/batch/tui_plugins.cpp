#include "tui_plugins.hpp"

#include <algorithm>
#include <cctype>

#include <fmt/format.h>

#include "local/task_environment.hpp"
#include "tui_pane_routes.hpp"
#include "tui_state.hpp"

namespace trainyard {

PluginRunner::PluginRunner(std::function<void()> wake) : wake_(std::move(wake)) {}

PluginRunner::~PluginRunner() {
  cancel_ = true;
  if (thread_.joinable()) thread_.join();
}

bool PluginRunner::start(const std::string& name, const std::string& command,
                         std::vector<std::string> env, std::chrono::milliseconds limit) {
  {
    std::lock_guard lock(mutex_);
    if (view_.running) return false;
    view_ = PluginRunView{name, true, {}};
  }
  if (thread_.joinable()) thread_.join();
  thread_ = std::thread([this, command, env = std::move(env), limit] {
    auto outcome = run_plugin_command(command, env, limit, cancel_);
    {
      std::lock_guard lock(mutex_);
      view_.outcome = std::move(outcome);
      view_.running = false;
    }
    wake_();
  });
  return true;
}

void PluginRunner::settle() {
  if (thread_.joinable()) thread_.join();
}

PluginRunView PluginRunner::view() const {
  std::lock_guard lock(mutex_);
  return view_;
}

namespace {

// `EXIT CODE` → `COL_EXIT_CODE`.
std::string column_variable(const std::string& title) {
  std::string out = "COL_";
  for (unsigned char ch : title)
    out += std::isalnum(ch) ? static_cast<char>(std::toupper(ch)) : '_';
  return out;
}

// Which frame field the selected row of a pane names.
void apply_selected(const std::string& pane, const std::string& key, Frame& f) {
  if (pane == "jobs") f.job = key;
  if (pane == "tasks") f.task = key;
  if (pane == "pools") f.pool = key;
  if (pane == "nodes") f.node = key;
  if (pane == "accounts") f.account = key;
  auto slash = key.find('/');  // the all-accounts panes: ACCOUNT/ID
  if ((pane == "alljobs" || pane == "allpools") && slash != std::string::npos) {
    f.account = key.substr(0, slash);
    (pane == "alljobs" ? f.job : f.pool) = key.substr(slash + 1);
  }
}

const TableRow* selected_row(const TuiState& st) {
  const auto& c = st.stack.back().cursor;
  if (c.selected < c.first || c.selected - c.first >= st.table.page.rows.size()) return nullptr;
  return &st.table.page.rows[c.selected - c.first];
}

}  // namespace

std::vector<std::string> plugin_environment(const AppContext& ctx, const TuiState& st) {
  auto env = scrub_environment(current_environment(), ctx.engine.secret_variables);
  const auto& pane = focused_pane(st);
  Frame f = st.stack.back();
  auto key = pane.is_table() ? selected_key(st) : std::nullopt;
  if (key) apply_selected(pane.name(), *key, f);
  for (const auto& [name, value] : {std::pair<const char*, std::string>{"ACCOUNT", f.account},
                                    {"POOL", f.pool},
                                    {"JOB", f.job},
                                    {"TASK", f.task},
                                    {"NODE", f.node}})
    env.push_back(std::string(name) + "=" + value);
  const TableRow* row = key ? selected_row(st) : nullptr;
  for (size_t i = 0; row && i < row->cells.size() && i < st.table.page.columns.size(); ++i)
    env.push_back(column_variable(st.table.page.columns[i].title) + "=" + row->cells[i].text);
  return env;
}

bool run_plugin_key(AppContext& ctx, TuiState& st, const KeyEvent& key) {
  const auto name = focused_pane(st).name();
  const auto chord = key_name(key);
  for (const auto& p : ctx.settings.plugins) {
    auto k = parse_key_name(p.key);
    if (!k || key_name(*k) != chord) continue;
    if (std::find(p.panes.begin(), p.panes.end(), name) == p.panes.end()) continue;
    if (!st.work.plugins)
      st.work.plugins = std::make_unique<PluginRunner>([&st] { st.work.events.post(Wake{}); });
    st.notes.action_label = p.name;
    auto env = plugin_environment(ctx, st);
    auto limit = std::chrono::milliseconds(static_cast<int64_t>(p.timeout_seconds * 1000));
    if (!st.work.plugins->start(p.name, p.command, std::move(env), limit)) {
      set_status(st, fmt::format("{}: the last plugin is still running", p.name),
                 StatusLevel::Error);
      return true;
    }
    st.stack.push_back(plugin_frame(st.stack.back()));
    focused_pane(st).entered(ctx, st);
    return true;
  }
  return false;
}

}  // namespace trainyard
