// The GPUs pane: this machine's GPUs from the sampler, and which local run uses each.
#include "tui_state.hpp"

namespace trainyard {
namespace {

class GpusPane : public Pane {
 public:
  std::string label() const override { return "GPUs"; }
  std::string name() const override { return "gpus"; }
  std::string title(const Frame&) const override { return "GPUs"; }
  std::vector<std::string> crumbs(const TuiState&) const override { return {"local", "gpus"}; }
  std::vector<Context> contexts() const override { return {Context::Gpus, Context::Global}; }
  bool quits_back() const override { return false; }
  bool is_table() const override { return false; }
  bool shows_samples() const override { return true; }
  bool reads_in_background() const override { return true; }
  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState&) override {
    return read_gpu_runs(ctx);
  }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    render_gpus(ctx, st, c, body);
  }
};

}  // namespace

std::unique_ptr<Pane> make_gpus_pane() {
  return std::make_unique<GpusPane>();
}

}  // namespace trainyard
