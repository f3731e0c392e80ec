// The Compare pane: runs marked with `v` in any job and account, their parameters and final
// and best values side by side and their curves overlaid.
#include "tui_compare.hpp"

namespace trainyard {
namespace {

class ComparePane : public Pane {
 public:
  std::string label() const override { return "Compare"; }
  std::string name() const override { return "compare"; }
  std::string title(const Frame&) const override { return "Compare runs"; }
  std::vector<std::string> crumbs(const TuiState&) const override { return {"compare"}; }
  std::vector<Context> contexts() const override { return {Context::Compare, Context::Global}; }
  bool per_account() const override { return false; }
  bool is_table() const override { return false; }
  bool reads_in_background() const override { return true; }
  // The reader's pane reads the runs the UI thread's set names.
  std::shared_ptr<const PaneData> read_input(const TuiState& st) const override {
    auto input = std::make_shared<CompareInput>();
    input->set = st.compare;
    return input;
  }
  void accept_input(TuiState& st, const PaneData* in) override {
    if (const auto* input = dynamic_cast<const CompareInput*>(in)) st.compare = input->set;
  }
  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState& st) override {
    return read_compare(ctx, st.compare);
  }
  // Details and logs open on the selected run, in its own account and job.
  bool select_for_detail(TuiState& st, Frame& next) const override {
    auto run = selected_compare_run(st, selected_);
    if (!run) return false;
    next.account = run->account;
    next.job = run->job;
    next.task = run->task;
    return true;
  }
  bool act(AppContext&, TuiState& st, Action a) override {
    return compare_action(st, a, selected_);
  }
  void render(AppContext&, TuiState& st, Canvas& c, Rect body) override {
    render_compare(st, selected_, c, body);
  }

 private:
  size_t selected_ = 0;
};

}  // namespace

std::unique_ptr<Pane> make_compare_pane() {
  return std::make_unique<ComparePane>();
}

}  // namespace trainyard
