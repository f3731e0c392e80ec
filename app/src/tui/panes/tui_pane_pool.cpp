// The Pool pane (`d` on a pool): its nodes as a heatmap by state, dedicated and Spot apart, with
// their counts; its resize progress and errors; its nodes and running tasks over the last day
// (the poller's samples); and the account's quotas against what its cached pools and jobs use.
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "pool_insight.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_pool_detail.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

class PoolPane : public Pane {
 public:
  std::string label() const override { return "Pool"; }
  std::string name() const override { return "pool"; }
  std::string title(const Frame& f) const override { return "Pool · " + f.pool; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    return {f.account, "pools", f.pool};
  }
  std::vector<Context> contexts() const override { return {Context::Global}; }
  bool is_table() const override { return false; }
  bool reads_in_background() const override { return true; }
  std::string focus_scope(const Frame& f) const override { return nodes_scope(f.pool); }
  // The pool's size, resize state and errors come with the pool list.
  std::vector<std::string> shown_scopes(const TuiState&) const override { return {kPoolsScope}; }
  // The pool list (its size and resize errors) and this pool's nodes stay fresh.
  PollFocus poll_focus(const TuiState& st) const override {
    PollFocus p;
    p.pools = true;
    p.pool = st.stack.back().pool;
    return p;
  }
  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState& st) override {
    return read_pool_detail(ctx, st.top());
  }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    render_pool_detail(ctx, st, c, body);
  }
};

}  // namespace

std::unique_ptr<Pane> make_pool_pane() {
  return std::make_unique<PoolPane>();
}

}  // namespace trainyard
