#include "keymap.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include "key_config.hpp"
#include "tui_commands.hpp"

namespace trainyard {

const std::vector<Binding>& default_bindings() {
  using A = Action;
  using C = Context;
  static const std::vector<Binding> bindings{
      {"q", A::Quit, "quit (in a sub-pane: back)", C::Global, true},
      {"C-c", A::QuitNow, "quit from any pane", C::Global},
      {"?", A::Help, "help", C::Global, true},
      {"Escape", A::Back, "back (a filter is cleared first)", C::Global},
      {":", A::Command, "command (" + listed_commands() + ")", C::Global, true},
      {"R", A::Refresh, "refresh now", C::Global},
      {"V", A::CompareOpen, "compare the runs marked with v", C::Global},
      {"[", A::HistoryBack, "history: the pane shown before", C::Global},
      {"]", A::HistoryForward, "history: forward again", C::Global},
      {"j", A::Down, "down", C::Table},
      {"Down", A::Down, "down", C::Table},
      {"k", A::Up, "up", C::Table},
      {"Up", A::Up, "up", C::Table},
      {"g", A::Top, "first row", C::Table},
      {"Home", A::Top, "first row", C::Table},
      {"G", A::Bottom, "last row", C::Table},
      {"End", A::Bottom, "last row", C::Table},
      {"PPage", A::PageUp, "page up", C::Table},
      {"NPage", A::PageDown, "page down", C::Table},
      {"Enter", A::Enter, "open", C::Table, true},
      {"/", A::Filter, "filter (state:failed exit:!=0 pool:gpu* !text /regex/)", C::Table, true},
      {"o", A::SortNext, "sort by the next column", C::Table},
      {"O", A::SortFlip, "reverse the sort", C::Table},
      {"Space", A::Mark, "mark/unmark the row (an action then takes every marked row)", C::Table},
      {"y", A::ShowJson, "json of the row, as Batch sends it (scrollable)", C::Table},
      {"C", A::Columns, "columns: choose which are shown", C::Table},
      {"W", A::Wide, "wide mode on/off (more columns: times, node, VM size)", C::Table},
      {"p", A::Pools, "pools of the account", C::Accounts, true},
      {"c", A::Create, "create a pool (Batch)", C::Pools, true},
      {"z", A::Resize, "resize (dedicated, Spot)", C::Pools, true},
      {"Z", A::StopResize, "stop resizing", C::Pools},
      {"a", A::Autoscale, "enable autoscale (shows the evaluation)", C::Pools},
      {"A", A::DisableAutoscale, "disable autoscale", C::Pools},
      {"D", A::Delete, "delete the pool (type its id)", C::Pools},
      {"d", A::Detail, "detail of the pool: nodes by state, history, resize, quotas", C::Pools,
       true},
      {"l", A::Logs, "start task's stderr of the node", C::Nodes, true},
      {"b", A::Reboot, "reboot the node", C::Nodes, true},
      {"i", A::Reimage, "reimage the node", C::Nodes},
      {"D", A::Delete, "remove the node from its pool", C::Nodes},
      {"h", A::Scheduling, "disable/enable scheduling", C::Nodes},
      {"L", A::RemoteLogin, "connect: ssh there as a temporary user (asks first)", C::Nodes},
      {"c", A::Create, "create a job (Batch)", C::Jobs},
      {"t", A::Terminate, "terminate the job (Batch)", C::Jobs},
      {"D", A::Delete, "delete the job (Batch)", C::Jobs},
      {"h", A::Scheduling, "disable/enable the job (Batch)", C::Jobs},
      {"F", A::FailedTasks, "failed tasks: exit code, failure info, stderr", C::Jobs, true},
      {"a", A::Reactivate, "retry a finished run as a new attempt (Batch: a failed task)",
       C::Tasks},
      {"r", A::RunForm, "start a run (Batch: add a task)", C::Jobs, true},
      {"r", A::RunForm, "start a run (Batch: add a task)", C::Tasks, true},
      {"s", A::Stop, "stop the task (Batch: terminate)", C::Tasks, true},
      {"d", A::Detail, "details and charts", C::Tasks, true},
      {"l", A::Logs, "logs", C::Tasks},
      {"x", A::Remove, "remove a finished run (Batch: delete the task)", C::Tasks},
      {"v", A::Compare, "compare the run (again: stop comparing it)", C::Tasks},
      {"T", A::TensorBoard, "TensorBoard on the run's working directory (local)", C::Tasks},
      {"w", A::Sweep, "sweep view of the job", C::Jobs},
      {"m", A::Pin, "pin the job (again: unpin): follow its running tasks' logs (Batch)", C::Jobs,
       true},
      {"w", A::Sweep, "sweep view of the job", C::Tasks},
      {"o", A::SortNext, "sort by the next column", C::Sweep, true},
      {"O", A::SortFlip, "reverse the sort", C::Sweep},
      {"m", A::NextMetric, "metric to rank by: the job's next one", C::Sweep, true},
      {"M", A::FlipDirection, "min/max is best (flips the direction)", C::Sweep, true},
      {"b", A::RankByFlip, "rank by each run's final or best value", C::Sweep},
      {"Space", A::Mark, "mark/unmark the run", C::Sweep, true},
      {"c", A::Chart, "chart of the marked runs (else the top 5)", C::Sweep, true},
      {"Enter", A::Detail, "details of the run", C::Sweep},
      {"d", A::Detail, "details of the run", C::Sweep},
      {"l", A::Logs, "logs of the run", C::Sweep},
      {"v", A::Compare, "compare the run (again: stop comparing it)", C::Sweep},
      {"j", A::Down, "next run", C::Compare},
      {"Down", A::Down, "next run", C::Compare},
      {"k", A::Up, "previous run", C::Compare},
      {"Up", A::Up, "previous run", C::Compare},
      {"v", A::Compare, "remove the run from the comparison", C::Compare, true},
      {"m", A::NextMetric, "metric to compare by: the next one", C::Compare, true},
      {"M", A::FlipDirection, "min/max is best (flips the direction)", C::Compare},
      {"b", A::RankByFlip, "rank by each run's final or best value", C::Compare},
      {"d", A::Detail, "details of the run", C::Compare, true},
      {"Enter", A::Detail, "details of the run", C::Compare},
      {"l", A::Logs, "logs of the run", C::Compare},
      {"j", A::Down, "scroll down", C::Logs},
      {"Down", A::Down, "scroll down", C::Logs},
      {"k", A::Up, "scroll up", C::Logs},
      {"Up", A::Up, "scroll up", C::Logs},
      {"g", A::Top, "top", C::Logs},
      {"G", A::Bottom, "bottom (follow)", C::Logs},
      {"PPage", A::PageUp, "page up", C::Logs},
      {"NPage", A::PageDown, "page down", C::Logs},
      {"f", A::Follow, "follow on/off", C::Logs, true},
      {"w", A::Wrap, "wrap on/off", C::Logs, true},
      {"h", A::ScrollLeft, "without wrap: half a screen left", C::Logs},
      {"Left", A::ScrollLeft, "without wrap: half a screen left", C::Logs},
      {"l", A::ScrollRight, "without wrap: half a screen right (a cut line ends in >)", C::Logs},
      {"Right", A::ScrollRight, "without wrap: half a screen right", C::Logs},
      {"0", A::LineStart, "without wrap: back to the lines' start", C::Logs},
      {"$", A::LineEnd, "without wrap: the end of the longest line shown", C::Logs},
      {"t", A::Times, "times on/off: when each line was read (UTC)", C::Logs},
      {"/", A::Search, "search", C::Logs, true},
      {"n", A::SearchNext, "next match", C::Logs, true},
      {"N", A::SearchPrev, "previous match", C::Logs},
      {"e", A::Stderr, "stdout/stderr", C::Logs, true},
      {"s", A::Stop, "stop the task", C::Logs},
      {"|", A::SplitLogs,
       "split the view: keep this log beside the next one opened (again: side by side/stacked)",
       C::Logs},
      {"Tab", A::SwitchLog, "switch to the other log of the split", C::Logs},
      {"x", A::CloseSplit, "close the split", C::Logs},
      {"j", A::Down, "scroll down", C::Json, true},
      {"Down", A::Down, "scroll down", C::Json},
      {"k", A::Up, "scroll up", C::Json},
      {"Up", A::Up, "scroll up", C::Json},
      {"g", A::Top, "top", C::Json},
      {"Home", A::Top, "top", C::Json},
      {"G", A::Bottom, "bottom", C::Json, true},
      {"End", A::Bottom, "bottom", C::Json},
      {"PPage", A::PageUp, "page up", C::Json},
      {"NPage", A::PageDown, "page down", C::Json},
      {"w", A::Wrap, "wrap on/off", C::Json, true},
      {"/", A::Search, "search", C::Json, true},
      {"n", A::SearchNext, "next match", C::Json},
      {"N", A::SearchPrev, "previous match", C::Json},
      {"h", A::ScrollLeft, "without wrap: half a screen left", C::Json},
      {"Left", A::ScrollLeft, "without wrap: half a screen left", C::Json},
      {"l", A::ScrollRight, "without wrap: half a screen right (a cut line ends in >)", C::Json},
      {"Right", A::ScrollRight, "without wrap: half a screen right", C::Json},
      {"0", A::LineStart, "without wrap: back to the lines' start", C::Json},
      {"$", A::LineEnd, "without wrap: the end of the longest line shown", C::Json},
      {"j", A::Down, "down", C::Columns},
      {"Down", A::Down, "down", C::Columns},
      {"k", A::Up, "up", C::Columns},
      {"Up", A::Up, "up", C::Columns},
      {"Space", A::ToggleColumn, "show/hide the column", C::Columns, true},
      {"Enter", A::ToggleColumn, "show/hide the column", C::Columns},
      {"W", A::Wide, "wide mode on/off (shows the wide-only columns)", C::Columns, true},
      {"d", A::Download, "download the blob or folder (asks where)", C::Storage, true},
      {"u", A::Upload, "upload a file or folder here (asks which)", C::Storage, true},
      {"l", A::Logs, "text view of the blob, whatever its type", C::Storage, true},
      {"d", A::Download, "fetch the output (asks where)", C::Outputs, true},
      {"a", A::DownloadAll, "all of them: fetch every output (asks where)", C::Outputs, true},
      {"i", A::Outputs, "inputs and outputs (Batch): node files, uploads, their state", C::Tasks},
      {"i", A::Outputs, "inputs and outputs (Batch): node files, uploads, their state", C::Detail},
      {"l", A::Logs, "logs", C::Detail, true},
      {"s", A::Stop, "stop the task", C::Detail},
  };
  return bindings;
}

const char* context_name(Context c) {
  switch (c) {
    case Context::Global:
      return "Everywhere";
    case Context::Table:
      return "Lists";
    case Context::Accounts:
      return "Accounts";
    case Context::Pools:
      return "Pools";
    case Context::Nodes:
      return "Nodes";
    case Context::Jobs:
      return "Jobs";
    case Context::Tasks:
      return "Tasks";
    case Context::Logs:
      return "Logs";
    case Context::Detail:
      return "Task detail";
    case Context::Gpus:
      return "GPUs";
    case Context::Sweep:
      return "Sweep";
    case Context::Compare:
      return "Compare";
    case Context::Json:
      return "JSON view and plugin output";
    case Context::Columns:
      return "Column chooser";
    case Context::Storage:
      return "Storage";
    case Context::Outputs:
      return "Task inputs and outputs";
  }
  return "";
}

std::optional<Action> lookup_action(const std::vector<Binding>& bindings,
                                    const std::vector<Context>& contexts, const KeyEvent& key) {
  auto name = key_name(key);
  for (Context c : contexts) {
    for (const auto& b : bindings) {
      if (b.context == c && b.chord == name) return b.action;
    }
  }
  return std::nullopt;
}

std::vector<Binding> bindings_with(const std::vector<Binding>& defaults,
                                   const std::map<std::string, std::string>& keys) {
  std::vector<Binding> out;
  std::set<std::pair<Context, Action>> moved;
  for (const auto& b : defaults) {
    auto it = keys.find(action_id(b.action));
    if (it == keys.end()) {
      out.push_back(b);
      continue;
    }
    // An action with several keys (j and Down) keeps one: the user's.
    if (!moved.insert({b.context, b.action}).second) continue;
    Binding rebound = b;
    rebound.chord = canonical_key(it->second);
    out.push_back(rebound);
  }
  // The user's key wins over another binding of it in the same context.
  std::vector<Binding> kept;
  for (const auto& b : out) {
    bool rebound = keys.count(action_id(b.action)) > 0;
    bool shadowed = !rebound && std::any_of(out.begin(), out.end(), [&](const Binding& o) {
      return o.context == b.context && o.chord == b.chord && keys.count(action_id(o.action));
    });
    if (!shadowed) kept.push_back(b);
  }
  return kept;
}

}  // namespace trainyard
