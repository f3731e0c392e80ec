// The plugin pane: the output of the last plugin command (sanitized), scrollable.
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "text_view.hpp"
#include "tui_pane_routes.hpp"
#include "tui_plugins.hpp"
#include "tui_state.hpp"
#include "widgets/log_roles.hpp"

namespace trainyard {
namespace {

std::string outcome_text(const PluginRunView& v) {
  if (v.running) return "running…";
  if (!v.outcome.error.empty()) return v.outcome.error;
  if (v.outcome.timed_out) return "timed out: killed";
  return fmt::format("exit {}", v.outcome.exit_code);
}

class PluginPane : public Pane {
 public:
  std::string label() const override { return "Plugin"; }
  std::string name() const override { return "plugin"; }
  std::string title(const Frame&) const override {
    auto v = latest();
    return fmt::format("{} · {}", sanitize_text(v.name), outcome_text(v));
  }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    std::vector<std::string> parts{f.account};
    // A vector, not a conditional between two initializer lists: their arrays would end with
    // the loop's first line.
    std::vector<const std::string*> ids{&f.job, &f.task};
    if (!f.node.empty()) ids = {&f.pool, &f.node};
    for (const auto* part : ids)
      if (!part->empty()) parts.push_back(*part);
    parts.push_back(sanitize_text(latest().name));
    return parts;
  }
  std::vector<Context> contexts() const override { return {Context::Json, Context::Global}; }
  bool per_account() const override { return false; }
  bool is_table() const override { return false; }
  bool reads_in_background() const override { return true; }
  bool shows_samples() const override { return true; }
  void entered(AppContext&, TuiState& st) override {
    text_ = TextView{};
    runner_ = st.work.plugins.get();
  }

  bool act(AppContext&, TuiState& st, Action a) override {
    return text_view_act(text_, lines_, st, a);
  }
  void search_for(TuiState& st, const std::string& query) override {
    text_view_search(text_, lines_, st, query);
  }

  void render(AppContext&, TuiState& st, Canvas& c, Rect body) override {
    if (st.work.plugins) {
      runner_ = st.work.plugins.get();
      auto v = st.work.plugins->view();
      bool changed = v.running != shown_.running || v.name != shown_.name ||
                     v.outcome.output.size() != shown_.outcome.output.size();
      shown_ = std::move(v);
      if (changed) {
        lines_.clear();
        for (const auto& l : sanitize_lines(shown_.outcome.output))
          lines_.push_back(to_log_line(l));
      }
    }
    if (lines_.empty())
      c.draw_text(body.x, body.y, shown_.running ? "running…" : "(no output)", Role::Dim, body.w);
    else
      render_text_view(text_, lines_, c, body);
  }

 private:
  // The runner's latest run (the title is drawn before the body).
  PluginRunView latest() const { return runner_ ? runner_->view() : shown_; }

  const PluginRunner* runner_ = nullptr;
  PluginRunView shown_;
  std::vector<LogLine> lines_;
  TextView text_;
};

}  // namespace

std::unique_ptr<Pane> make_plugin_pane() {
  return std::make_unique<PluginPane>();
}

Frame plugin_frame(Frame from) {
  from.view = View::Plugin;
  from.cursor = {};
  return from;
}

}  // namespace trainyard
