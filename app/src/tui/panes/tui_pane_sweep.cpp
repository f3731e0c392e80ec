// The Sweep pane: every run of a job ranked by a metric, with their parameters and curves.
#include "sync/incremental_sync.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

class SweepPane : public Pane {
 public:
  std::string label() const override { return "Sweep"; }
  std::string name() const override { return "sweep"; }
  std::string row_kind() const override { return "task"; }
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
  bool act(AppContext&, TuiState& st, Action a) override { return sweep_action(st, a); }
  std::shared_ptr<const PaneData> read_input(const TuiState& st) const override {
    return sweep_choice(st);
  }
  void accept_input(TuiState& st, const PaneData* in) override {
    if (const auto* choice = dynamic_cast<const SweepChoice*>(in)) accept_sweep_choice(st, *choice);
  }
  // The runs are read, ranked and paged together (a page's order depends on every run).
  TablePage load(AppContext& ctx, TuiState& st, size_t, int) override {
    refresh_sweep(ctx, st);
    return st.table.page;
  }
  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState& st) override {
    return read_sweep_view(ctx, st);
  }
  Rect table_rect(const TuiState& st, Rect body) const override {
    return sweep_table_rect(st, body);
  }
  void render(AppContext&, TuiState& st, Canvas& c, Rect body) override {
    render_sweep(st, c, body);
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
