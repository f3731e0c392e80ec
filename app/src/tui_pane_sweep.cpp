// The Sweep pane: every run of a job ranked by a metric, with their parameters and curves.
#include "sync/incremental_sync.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

class SweepPane : public Pane {
 public:
  std::string label() const override { return "Sweep"; }
  std::string name() const override { return "sweep"; }
  std::string title(const Frame& f) const override { return "Sweep · " + f.job; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    std::vector<std::string> parts{f.account, "jobs"};
    if (!f.job.empty()) parts.push_back(f.job);
    parts.push_back("sweep");
    return parts;
  }
  std::vector<Context> contexts() const override {
    return {Context::Sweep, Context::Table, Context::Global};
  }
  std::string focus_scope(const Frame& f) const override {
    return f.job.empty() ? kJobsScope : tasks_scope(f.job);
  }
  PollFocus poll_focus(const TuiState& st) const override {
    PollFocus p;
    p.job = st.stack.back().job;
    return p;
  }
  bool select_for_detail(TuiState& st, Frame& next) const override {
    auto key = selected_key(st);
    if (!key) return false;
    next.task = *key;
    return true;
  }
  bool act(AppContext& ctx, TuiState& st, Action a) override { return sweep_action(ctx, st, a); }
  bool reads_in_background() const override { return false; }
  void refresh(AppContext& ctx, TuiState& st) override { refresh_sweep(ctx, st); }
  Rect table_rect(const TuiState& st, Rect body) const override {
    return sweep_table_rect(st, body);
  }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    render_sweep(ctx, st, c, body);
  }
  void store_changed() override { state.stale = true; }

  SweepState state;
};

}  // namespace

std::unique_ptr<Pane> make_sweep_pane() {
  return std::make_unique<SweepPane>();
}

SweepState& sweep_state(TuiState& st) {
  return static_cast<SweepPane&>(st.panes[View::Sweep]).state;
}

const SweepState& sweep_state(const TuiState& st) {
  return static_cast<const SweepPane&>(st.panes[View::Sweep]).state;
}

}  // namespace trainyard
