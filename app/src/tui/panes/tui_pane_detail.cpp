// The Detail pane: one task's facts, setup and metric charts.
#include "sync/incremental_sync.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

class DetailPane : public Pane {
 public:
  std::string label() const override { return "Detail"; }
  std::string name() const override { return "detail"; }
  std::string title(const Frame& f) const override { return "Task · " + f.job + "/" + f.task; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    std::vector<std::string> parts{f.account, "jobs"};
    if (!f.job.empty()) parts.push_back(f.job);
    parts.push_back(f.task);
    return parts;
  }
  std::vector<Context> contexts() const override { return {Context::Detail, Context::Global}; }
  bool is_table() const override { return false; }
  std::string focus_scope(const Frame& f) const override {
    return f.job.empty() ? kJobsScope : tasks_scope(f.job);
  }
  PollFocus poll_focus(const TuiState& st) const override {
    PollFocus p;
    p.job = st.stack.back().job;
    p.detail_task = st.stack.back().task;
    return p;
  }
  bool reads_in_background() const override { return true; }
  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState& st) override {
    return read_detail(ctx, st.top());
  }
  void render(AppContext&, TuiState& st, Canvas& c, Rect body) override {
    render_detail(st, c, body);
  }
};

}  // namespace

std::unique_ptr<Pane> make_detail_pane() {
  return std::make_unique<DetailPane>();
}

}  // namespace trainyard
