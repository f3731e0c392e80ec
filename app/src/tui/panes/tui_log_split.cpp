// Two logs at once: the focused one is the Logs pane's own state (every log key acts on it);
// the other is kept with its frame, and Tab swaps the two, so the keys need no second path.
#include "tui_log_split.hpp"

#include <fmt/format.h>

#include "core/sanitizer.hpp"

namespace trainyard {
namespace {

std::string log_label(const Frame& f, const LogState& lg) {
  std::string stream = lg.stderr_stream ? "stderr" : "stdout";
  if (!f.node.empty()) return sanitize_text(f.pool + "/" + f.node) + " · startup/" + stream;
  return sanitize_text(f.job + "/" + f.task) + " · " + stream;
}

// One half: its label (bright when it has the keys), then the log.
void render_half(const Frame& f, LogState& lg, bool focused, Canvas& c, Rect r) {
  if (r.h < 2) return;
  auto label = (focused ? "▶ " : "  ") + log_label(f, lg);
  c.draw_text_truncated(r.x, r.y, label, focused ? Role::Title : Role::Dim, r.w);
  render_log_state(lg, c, r.drop_top(1));
}

std::pair<Rect, Rect> halves(Rect r, bool vertical) {
  if (vertical) {
    int left = (r.w - 1) / 2;
    return {{r.x, r.y, left, r.h}, {r.x + left + 1, r.y, r.w - left - 1, r.h}};
  }
  int top = (r.h - 1) / 2;
  return {{r.x, r.y, r.w, top}, {r.x, r.y + top + 1, r.w, r.h - top - 1}};
}

void draw_divider(Canvas& c, Rect r, bool vertical, const std::pair<Rect, Rect>& h) {
  if (vertical) {
    c.fill({h.first.right(), r.y, 1, r.h}, Role::Border, "│");
  } else {
    std::string rule;
    for (int i = 0; i < r.w; ++i) rule += "─";
    c.draw_text(r.x, h.first.bottom(), rule, Role::Border, r.w);
  }
}

}  // namespace

void split_logs(TuiState& st) {
  auto& split = log_split(st);
  if (split) {
    split->vertical = !split->vertical;
    return;
  }
  split = LogSplit{st.top(), std::move(log_state(st))};
  log_state(st) = LogState{};
  if (st.stack.size() > 1) st.stack.pop_back();
  set_status(st, "log kept in a split: open another log (Enter or l) to see both");
}

void switch_log_focus(TuiState& st) {
  auto& split = log_split(st);
  if (!split) return set_status(st, "one log only: | keeps it in a split");
  Frame& top = st.top();
  std::swap(top.account, split->frame.account);
  std::swap(top.pool, split->frame.pool);
  std::swap(top.job, split->frame.job);
  std::swap(top.task, split->frame.task);
  std::swap(top.node, split->frame.node);
  std::swap(log_state(st), split->state);
  split->focus_second = !split->focus_second;
}

void close_log_split(TuiState& st) {
  auto& split = log_split(st);
  if (!split) return;
  split.reset();
  set_status(st, "split closed");
}

void refresh_log_split(TuiState& st) {
  if (auto& split = log_split(st)) refresh_log_state(split->state);
}

void render_log_split(TuiState& st, Canvas& c, Rect r) {
  auto& split = log_split(st);
  if (!split) return render_logs(st, c, r);
  auto h = halves(r, split->vertical);
  draw_divider(c, r, split->vertical, h);
  Rect mine = split->focus_second ? h.second : h.first;
  Rect other = split->focus_second ? h.first : h.second;
  render_half(st.top(), log_state(st), true, c, mine);
  render_half(split->frame, split->state, false, c, other);
}

bool log_split_action(TuiState& st, Action a) {
  switch (a) {
    case Action::SplitLogs:
      split_logs(st);
      return true;
    case Action::SwitchLog:
      switch_log_focus(st);
      return true;
    case Action::CloseSplit:
      close_log_split(st);
      return true;
    default:
      return false;
  }
}

}  // namespace trainyard
