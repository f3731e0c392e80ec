// The status message: which pane and action made it, and when it went stale.
#include <fmt/format.h>

#include "tui_state.hpp"

namespace trainyard {
namespace {

int64_t current_version(const TuiState& st) {
  return st.work.read_data_version ? st.work.read_data_version() : -1;
}

}  // namespace

void set_status(TuiState& st, std::string msg, StatusLevel level) {
  set_status_from(st, status_origin(st), std::move(msg), level);
}

void set_status_from(TuiState& st, std::string origin, std::string msg, StatusLevel level) {
  st.status.message = std::move(msg);
  st.status.level = level;
  st.status.origin = std::move(origin);
  st.status.message_stale = false;
  st.notes.track = {frame_key(st.top()), current_version(st), st.top().account != kLocalAccount};
}

std::string status_origin(const TuiState& st, bool with_action) {
  const Frame& f = st.stack.back();
  const auto& focused = focused_pane(st);
  std::string pane = focused.label();
  if (f.account != kLocalAccount && focused.per_account()) pane = f.account + " " + pane;
  return !with_action || st.notes.action_label.empty() ? pane
                                                       : pane + " · " + st.notes.action_label;
}

std::string action_name(const Pane& pane, Action a) {
  for (Context c : pane.contexts())
    for (const auto& b : default_bindings())
      if (b.context == c && b.action == a) return b.description.substr(0, b.description.find(' '));
  return "";
}

std::string frame_key(const Frame& f) {
  return fmt::format("{}|{}|{}|{}|{}|{}|{}|{}", static_cast<int>(f.view), f.account, f.pool, f.job,
                     f.task, f.node, f.query, f.entity);
}

// The startup hint has no origin: it belongs to no pane and stays until something replaces it.
// Newer data counts on Batch panes only: local data is always live (the age reads 0s), and
// a supervisor's writes would dim every message within a second.
void age_status(TuiState& st) {
  auto& s = st.status;
  if (s.message.empty() || s.origin.empty()) return;
  bool moved = st.notes.track.frame != frame_key(st.top());
  if (moved && s.level == StatusLevel::Info) {
    s.message.clear();
    s.origin.clear();
    return;
  }
  if (s.message_stale) return;
  int64_t version = st.notes.track.polled ? current_version(st) : -1;
  auto then = st.notes.track.data_version;
  bool newer_data = version != -1 && then != -1 && version != then;
  s.message_stale = moved || newer_data;
}

}  // namespace trainyard
