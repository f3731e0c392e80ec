// The Logs pane: a task's stdout or stderr, or a Batch node's start task logs, followed live.
#include "sync/incremental_sync.hpp"
#include "tui_log_marks.hpp"
#include "tui_log_split.hpp"
#include "tui_pane_routes.hpp"
#include "tui_state.hpp"
#include "tui_storage.hpp"

namespace trainyard {
namespace {

class LogsPane : public Pane {
 public:
  std::string label() const override { return "Logs"; }
  std::string name() const override { return "logs"; }
  std::string title(const Frame& f) const override {
    if (auto b = blob_of_frame(f)) return "Blob · " + sanitize_text(b->container + "/" + b->blob);
    if (!f.node.empty()) return "Logs · " + f.pool + "/" + f.node;
    if (auto n = attempt_of_frame(f))
      return "Logs · " + f.job + "/" + f.task + " · attempt " + std::to_string(*n);
    return "Logs · " + f.job + "/" + f.task;
  }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    if (auto b = blob_of_frame(f))
      return {"storage", sanitize_text(b->storage), sanitize_text(b->container),
              sanitize_text(b->blob)};
    if (!f.node.empty()) {
      std::vector<std::string> parts{f.account, "pools"};
      if (!f.pool.empty()) parts.push_back(f.pool);
      parts.push_back(f.node);
      parts.push_back(state.stderr_stream ? "startup/stderr" : "startup/stdout");
      return parts;
    }
    std::vector<std::string> parts{f.account, "jobs"};
    if (!f.job.empty()) parts.push_back(f.job);
    parts.push_back(f.task);
    std::string stream = state.stderr_stream ? "stderr" : "stdout";
    if (auto n = attempt_of_frame(f)) stream += ".attempt-" + std::to_string(*n);
    parts.push_back(stream);
    return parts;
  }
  std::vector<Context> contexts() const override { return {Context::Logs, Context::Global}; }
  bool is_table() const override { return false; }
  std::string focus_scope(const Frame& f) const override {
    if (blob_of_frame(f)) return "";
    return f.node.empty() ? tasks_scope(f.job) : nodes_scope(f.pool);
  }
  PollFocus poll_focus(const TuiState& st) const override {
    const auto& f = st.stack.back();
    PollFocus p;
    if (blob_of_frame(f)) return p;  // the storage worker reads it
    p.log_file = remote_log_file(f, state.stderr_stream);
    if (!f.node.empty()) {
      p.pool = f.pool;
      p.log_node = f.node;
    } else {
      p.job = f.job;
      p.log_task = f.task;
    }
    return p;
  }

  // A node's start task fails on stderr: that is what its log pane opens on.
  void entered(AppContext& ctx, TuiState& st) override {
    if (auto b = blob_of_frame(st.top())) start_blob_tail(ctx, st, blob_tail, *b);
    open_logs(ctx, st, !st.top().node.empty());
  }
  bool act(AppContext& ctx, TuiState& st, Action a) override {
    if (log_split_action(st, a)) return true;
    if (!log_action_handles(a)) return false;
    log_action(ctx, st, a);
    return true;
  }
  void search_for(TuiState& st, const std::string& query) override {
    log_state(st).search = query;
    log_state(st).match.reset();  // a new query starts from the top of the screen
    log_search(st, true);
  }
  // The files are read here; their read marks (`t`) by the reader, on its own connection.
  bool reads_in_background() const override { return true; }
  // A blob's copy is read on as it grows, by the storage worker.
  void read_files(TuiState& st) override {
    refresh_logs(st);
    refresh_log_split(st);
    if (blob_of_frame(st.top())) step_blob_tail(st, blob_tail, state.follow);
  }
  std::shared_ptr<const PaneData> read_input(const TuiState&) const override {
    auto input = std::make_shared<LogMarksInput>();
    for (const auto* lg : {&state, split ? &split->state : nullptr})
      if (auto want = lg ? log_marks_want(*lg) : std::nullopt) input->wants.push_back(*want);
    return input;
  }
  void accept_input(TuiState&, const PaneData* in) override {
    if (const auto* input = dynamic_cast<const LogMarksInput*>(in)) marks_input_ = *input;
  }
  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState&) override {
    return std::make_shared<LogMarksData>(read_log_marks(*ctx.store, marks_input_));
  }
  // Without a reader (a test's TUI) the marks are read here.
  void refresh(AppContext& ctx, TuiState& st) override {
    accept_input(st, read_input(st).get());
    Pane::refresh(ctx, st);
  }
  void render(AppContext&, TuiState& st, Canvas& c, Rect body) override {
    take_marks(st);
    render_log_split(st, c, body);
  }
  void tick(TuiState& st) override { read_files(st); }
  bool tailing(const TuiState&) const override { return state.follow; }

  LogState state;
  std::optional<LogSplit> split;  ///< a second log shown beside this one
  BlobTail blob_tail;             ///< a blob's copy, when the view shows one

 private:
  // Each read is taken once: a model's marks follow the ones held when it was asked for.
  void take_marks(TuiState& st) {
    const auto* data = dynamic_cast<const LogMarksData*>(st.shown.data.get());
    if (!data || st.shown.data == taken_) return;
    taken_ = st.shown.data;
    take_log_marks(state, *data);
    if (split) take_log_marks(split->state, *data);
  }

  LogMarksInput marks_input_;              // the reader's pane: what to read
  std::shared_ptr<const PaneData> taken_;  // the UI's pane: the last read taken
};

}  // namespace

std::unique_ptr<Pane> make_logs_pane() {
  return std::make_unique<LogsPane>();
}

bool shows_log(const Frame& f) {
  return f.view == View::Logs;
}

LogState& log_state(TuiState& st) {
  return static_cast<LogsPane&>(st.panes[View::Logs]).state;
}

std::optional<LogSplit>& log_split(TuiState& st) {
  return static_cast<LogsPane&>(st.panes[View::Logs]).split;
}

const LogState& log_state(const TuiState& st) {
  return static_cast<const LogsPane&>(st.panes[View::Logs]).state;
}

}  // namespace trainyard
