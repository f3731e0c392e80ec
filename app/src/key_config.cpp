#include "key_config.hpp"

#include <algorithm>
#include <set>
#include <utility>

#include <fmt/format.h>

namespace trainyard {
namespace {

using A = Action;

// One name per action; the help lists them beside the keys.
const std::vector<std::pair<Action, const char*>>& action_ids() {
  static const std::vector<std::pair<Action, const char*>> ids{
      {A::Quit, "quit"},
      {A::QuitNow, "quit-now"},
      {A::Help, "help"},
      {A::Back, "back"},
      {A::Enter, "open"},
      {A::Up, "up"},
      {A::Down, "down"},
      {A::Top, "top"},
      {A::Bottom, "bottom"},
      {A::PageUp, "page-up"},
      {A::PageDown, "page-down"},
      {A::Filter, "filter"},
      {A::Command, "command"},
      {A::RunForm, "run"},
      {A::Stop, "stop"},
      {A::Detail, "detail"},
      {A::Logs, "logs"},
      {A::Stderr, "stderr"},
      {A::Follow, "follow"},
      {A::Wrap, "wrap"},
      {A::Times, "times"},
      {A::SearchNext, "search-next"},
      {A::SearchPrev, "search-prev"},
      {A::Search, "search"},
      {A::Pools, "pools"},
      {A::Jobs, "jobs"},
      {A::Tasks, "tasks"},
      {A::Gpus, "gpus"},
      {A::Accounts, "accounts"},
      {A::Refresh, "refresh"},
      {A::Remove, "remove"},
      {A::Sweep, "sweep"},
      {A::SortNext, "sort-next"},
      {A::SortFlip, "sort-flip"},
      {A::Mark, "mark"},
      {A::Chart, "chart"},
      {A::NextMetric, "next-metric"},
      {A::FlipDirection, "flip-direction"},
      {A::Pin, "pin"},
      {A::Create, "create"},
      {A::Resize, "resize"},
      {A::StopResize, "stop-resize"},
      {A::Autoscale, "autoscale"},
      {A::DisableAutoscale, "disable-autoscale"},
      {A::Delete, "delete"},
      {A::Reboot, "reboot"},
      {A::Reimage, "reimage"},
      {A::Scheduling, "scheduling"},
      {A::RemoteLogin, "remote-login"},
      {A::TensorBoard, "tensorboard"},
      {A::Terminate, "terminate"},
      {A::Reactivate, "reactivate"},
      {A::Compare, "compare"},
      {A::CompareOpen, "compare-open"},
      {A::SplitLogs, "split-logs"},
      {A::SwitchLog, "switch-log"},
      {A::CloseSplit, "close-split"},
      {A::HistoryBack, "history-back"},
      {A::HistoryForward, "history-forward"},
      {A::FailedTasks, "failed-tasks"},
      {A::Columns, "columns"},
      {A::Wide, "wide"},
      {A::ShowJson, "json"},
      {A::ToggleColumn, "toggle-column"},
      {A::Download, "download"},
      {A::Upload, "upload"},
      {A::Outputs, "outputs"},
      {A::DownloadAll, "download-all"},
  };
  return ids;
}

// The canonical name of a key (`PageDown` → `NPage`), as bindings spell it.
std::string canonical_key(const std::string& name) {
  auto k = parse_key_name(name);
  return k ? key_name(*k) : name;
}

}  // namespace

std::string action_id(Action a) {
  for (const auto& [action, id] : action_ids())
    if (action == a) return id;
  return "";
}

std::optional<Action> action_by_id(const std::string& id) {
  for (const auto& [action, name] : action_ids())
    if (name == id) return action;
  return std::nullopt;
}

Result<void> check_key_overrides(const std::map<std::string, std::string>& keys,
                                 const std::string& source) {
  for (const auto& [name, key] : keys) {
    if (!action_by_id(name))
      return make_error(ErrorKind::Parse,
                        fmt::format("{}: /keys/{}: unknown action (the help (?) lists each "
                                    "action's name)",
                                    source, name));
    if (!parse_key_name(key))
      return make_error(ErrorKind::Parse,
                        fmt::format("{}: /keys/{}: '{}' is not a key name (e.g. K, C-k, F5, "
                                    "PageDown)",
                                    source, name, key));
  }
  return ok_result();
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
