#include "key_config.hpp"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "widgets/key.hpp"

namespace trainyard {
namespace {

// One name per action; the help lists them beside the keys.
const std::vector<std::pair<Action, const char*>>& action_ids() {
  static const std::vector<std::pair<Action, const char*>> ids{
      {Action::Quit, "quit"},
      {Action::QuitNow, "quit-now"},
      {Action::Help, "help"},
      {Action::Back, "back"},
      {Action::Enter, "open"},
      {Action::Up, "up"},
      {Action::Down, "down"},
      {Action::Top, "top"},
      {Action::Bottom, "bottom"},
      {Action::PageUp, "page-up"},
      {Action::PageDown, "page-down"},
      {Action::Filter, "filter"},
      {Action::Command, "command"},
      {Action::RunForm, "run"},
      {Action::Stop, "stop"},
      {Action::Detail, "detail"},
      {Action::Logs, "logs"},
      {Action::Stderr, "stderr"},
      {Action::Follow, "follow"},
      {Action::Wrap, "wrap"},
      {Action::ScrollLeft, "scroll-left"},
      {Action::ScrollRight, "scroll-right"},
      {Action::LineStart, "line-start"},
      {Action::LineEnd, "line-end"},
      {Action::Times, "times"},
      {Action::SearchNext, "search-next"},
      {Action::SearchPrev, "search-prev"},
      {Action::Search, "search"},
      {Action::Pools, "pools"},
      {Action::Jobs, "jobs"},
      {Action::Tasks, "tasks"},
      {Action::Gpus, "gpus"},
      {Action::Accounts, "accounts"},
      {Action::Refresh, "refresh"},
      {Action::Remove, "remove"},
      {Action::Sweep, "sweep"},
      {Action::SortNext, "sort-next"},
      {Action::SortFlip, "sort-flip"},
      {Action::Mark, "mark"},
      {Action::Chart, "chart"},
      {Action::NextMetric, "next-metric"},
      {Action::FlipDirection, "flip-direction"},
      {Action::RankByFlip, "rank-by"},
      {Action::Pin, "pin"},
      {Action::Create, "create"},
      {Action::Resize, "resize"},
      {Action::StopResize, "stop-resize"},
      {Action::Autoscale, "autoscale"},
      {Action::DisableAutoscale, "disable-autoscale"},
      {Action::Delete, "delete"},
      {Action::Reboot, "reboot"},
      {Action::Reimage, "reimage"},
      {Action::Scheduling, "scheduling"},
      {Action::RemoteLogin, "remote-login"},
      {Action::TensorBoard, "tensorboard"},
      {Action::Terminate, "terminate"},
      {Action::Reactivate, "reactivate"},
      {Action::Compare, "compare"},
      {Action::CompareOpen, "compare-open"},
      {Action::SplitLogs, "split-logs"},
      {Action::SwitchLog, "switch-log"},
      {Action::CloseSplit, "close-split"},
      {Action::HistoryBack, "history-back"},
      {Action::HistoryForward, "history-forward"},
      {Action::FailedTasks, "failed-tasks"},
      {Action::Columns, "columns"},
      {Action::Wide, "wide"},
      {Action::ShowJson, "json"},
      {Action::ToggleColumn, "toggle-column"},
      {Action::Download, "download"},
      {Action::Upload, "upload"},
      {Action::Outputs, "outputs"},
      {Action::DownloadAll, "download-all"},
  };
  return ids;
}

}  // namespace

std::string canonical_key(const std::string& name) {
  auto k = parse_key_name(name);
  return k ? key_name(*k) : name;
}

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

namespace {

// The keys every pane moves with (j k g G Enter Esc q / :): taking one for another action
// would leave no way to move, unless its action is given another key too.
constexpr std::pair<const char*, Action> kNavigationKeys[] = {
    {"j", Action::Down},   {"k", Action::Up},        {"g", Action::Top},
    {"G", Action::Bottom}, {"Enter", Action::Enter}, {"Escape", Action::Back},
    {"q", Action::Quit},   {"/", Action::Filter},    {":", Action::Command},
};

Result<void> check_navigation_kept(const std::map<std::string, std::string>& keys,
                                   const std::string& name, const std::string& key,
                                   const std::string& source) {
  const std::string chord = canonical_key(key);
  for (const auto& [nav_key, nav_action] : kNavigationKeys) {
    if (canonical_key(nav_key) != chord) continue;
    const std::string nav_name = action_id(nav_action);
    if (nav_name == name || keys.count(nav_name)) return ok_result();
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: /keys/{}: '{}' is the key of {}: move {} too (\"{}\": "
                                  "\"KEY\") or choose another key",
                                  source, name, key, nav_name, nav_name, nav_name));
  }
  return ok_result();
}

}  // namespace

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
    TY_TRY(check_navigation_kept(keys, name, key, source));
  }
  return ok_result();
}

}  // namespace trainyard
