// The plugin pane: the output of the last plugin command (sanitized), scrollable.
#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "tui_pane_routes.hpp"
#include "tui_plugins.hpp"
#include "tui_state.hpp"

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
  std::vector<Context> contexts() const override { return {Context::Table, Context::Global}; }
  bool per_account() const override { return false; }
  bool is_table() const override { return false; }
  bool reads_in_background() const override { return true; }
  bool shows_samples() const override { return true; }
  void entered(AppContext&, TuiState& st) override {
    top_ = 0;
    runner_ = st.work.plugins.get();
  }

  bool act(AppContext&, TuiState& st, Action a) override {
    long last = std::max(0L, static_cast<long>(lines_.size()) - height_);
    long top = static_cast<long>(top_);
    switch (a) {
      case Action::Down:
        ++top;
        break;
      case Action::Up:
        --top;
        break;
      case Action::PageDown:
        top += height_;
        break;
      case Action::PageUp:
        top -= height_;
        break;
      case Action::Top:
        top = 0;
        break;
      case Action::Bottom:
        top = last;
        break;
      case Action::Enter:
      case Action::Filter:
        set_status(st, "the plugin's output has no rows to open or filter");
        return true;
      default:
        return false;
    }
    top_ = static_cast<size_t>(std::clamp(top, 0L, last));
    return true;
  }

  void render(AppContext&, TuiState& st, Canvas& c, Rect body) override {
    if (st.work.plugins) {
      runner_ = st.work.plugins.get();
      auto v = st.work.plugins->view();
      bool changed = v.running != shown_.running || v.name != shown_.name ||
                     v.outcome.output.size() != shown_.outcome.output.size();
      shown_ = std::move(v);
      if (changed) lines_ = sanitize_lines(shown_.outcome.output);
    }
    height_ = std::max(1, body.h);
    if (lines_.empty())
      c.draw_text(body.x, body.y, shown_.running ? "running…" : "(no output)", Role::Dim, body.w);
    for (int y = 0; y < body.h && top_ + y < lines_.size(); ++y)
      c.draw_text_truncated(body.x, body.y + y, lines_[top_ + y].text, Role::LogText, body.w);
  }

 private:
  // The runner's latest run (the title is drawn before the body).
  PluginRunView latest() const { return runner_ ? runner_->view() : shown_; }

  const PluginRunner* runner_ = nullptr;
  PluginRunView shown_;
  std::vector<SanitizedLine> lines_;
  size_t top_ = 0;
  int height_ = 10;
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
