// The log pane: a live tail of stdout/stderr through the bounded-memory LogFile.
#include <charconv>

#include <fmt/format.h>

#include "local/task_environment.hpp"
#include "log_times.hpp"
#include "sync/remote_log.hpp"
#include "tui_state.hpp"
#include "tui_storage.hpp"
#include "widgets/log_roles.hpp"
#include "widgets/log_view.hpp"

namespace trainyard {
namespace {

void scroll(LogState& lg, long delta) {
  auto lines = log_lines(lg);
  scroll_rows(lg.view, lines, delta);
  lg.follow = delta > 0 && at_bottom(lg.view, lines);
}

// A task's stdout and stderr keep read marks (see LogMetricsFollower); a node's files do not.
// The reader reads them (tui_log_marks.hpp).
void attach_marks(const Frame& f, LogState& lg) {
  // Marks date the latest attempt's lines; an earlier attempt's file has none.
  if (f.task.empty() || !f.node.empty() || attempt_of_frame(f)) return;
  // The name both sides keep marks by.
  lg.marks_key = LogMarksKey{f.account, f.job, f.task, remote_log_file(f, lg.stderr_stream)};
}

}  // namespace

TextLines log_lines(LogState& lg) {
  TextLines t;
  t.count = lg.file ? lg.file->line_count() : 0;
  t.read = [&lg](size_t first, size_t n) {
    std::vector<LogLine> out;
    if (!lg.file) return out;
    if (auto lines = lg.file->read_lines(first, n))
      for (const auto& l : *lines) out.push_back(to_log_line(l));
    return out;
  };
  return t;
}

std::string remote_log_file(const Frame& f, bool stderr_stream) {
  if (!f.node.empty()) return stderr_stream ? "startup/stderr.txt" : "startup/stdout.txt";
  return stderr_stream ? "stderr.txt" : "stdout.txt";
}

std::string attempt_entity(int attempt) {
  return fmt::format("attempt:{}", attempt);
}

std::optional<int> attempt_of_frame(const Frame& f) {
  if (!f.entity.starts_with("attempt:")) return std::nullopt;
  int n = 0;
  auto text = std::string_view(f.entity).substr(8);
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), n);
  if (ec != std::errc() || end != text.data() + text.size() || n < 0) return std::nullopt;
  return n;
}

// A local run's own file, the cache copy a Batch account's poller keeps of the remote one, or
// the copy of a blob the storage worker keeps.
std::string log_path(AppContext& ctx, const Frame& f, bool stderr_stream) {
  if (auto b = blob_of_frame(f)) return blob_copy_path(ctx.data_dir, *b);
  if (f.account == kLocalAccount) {
    auto paths = run_paths(ctx.data_dir, f.job, f.task);
    const auto& log = stderr_stream ? paths.stderr_txt : paths.stdout_txt;
    if (auto n = attempt_of_frame(f)) return attempt_log_path(log, *n);
    return log;
  }
  RemoteFileRef ref{f.account, f.job, f.task, "", "", remote_log_file(f, stderr_stream)};
  if (!f.node.empty()) ref = {f.account, "", "", f.pool, f.node, ref.path};
  auto path = remote_cache_path(ctx.data_dir, ref);
  return path ? path->string() : "";
}

void open_logs(AppContext& ctx, TuiState& st, bool stderr_stream) {
  auto& lg = log_state(st);
  bool times = lg.times;  // kept across e (stdout/stderr)
  lg = LogState{};
  lg.stderr_stream = stderr_stream;
  lg.times = times;
  lg.path = log_path(ctx, st.top(), stderr_stream);
  attach_marks(st.top(), lg);
  refresh_logs(st);
}

void refresh_logs(TuiState& st) {
  refresh_log_state(log_state(st));
}

void refresh_log_state(LogState& lg) {
  if (!lg.file) {
    // A Batch task's copy appears once its poller has read the first bytes.
    if (lg.path.empty()) return;
    auto f = LogFile::open_lazy(lg.path);
    if (!f) return;
    lg.file.emplace(std::move(*f));
  }
  // Index in 64 MiB steps for at most 100 ms per refresh: a 1 GB log is ready at once, a much
  // larger one never freezes the UI.
  auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(100);
  for (;;) {
    auto r = lg.file->refresh(64ull << 20);
    if (!r) break;
    if (r->reset) scroll_to_top(lg.view);
    if (r->complete || std::chrono::steady_clock::now() >= until) break;
  }
  if (lg.follow) scroll_to_bottom(lg.view, log_lines(lg));
}

bool log_action_handles(Action a) {
  switch (a) {
    case Action::Up:
    case Action::Down:
    case Action::Top:
    case Action::Bottom:
    case Action::PageUp:
    case Action::PageDown:
    case Action::Follow:
    case Action::Wrap:
    case Action::ScrollLeft:
    case Action::ScrollRight:
    case Action::LineStart:
    case Action::LineEnd:
    case Action::Times:
    case Action::Search:
    case Action::SearchNext:
    case Action::SearchPrev:
    case Action::Stderr:
      return true;
    default:
      return false;
  }
}

// Where a search step starts: past the current match, else at the top line; nullopt when the
// current match is at the end the step goes towards.
std::optional<size_t> step_start(const LogState& lg, bool forward) {
  if (!lg.match) return lg.view.top;
  if (!forward) return *lg.match > 0 ? std::optional(*lg.match - 1) : std::nullopt;
  return *lg.match + 1 < lg.file->line_count() ? std::optional(*lg.match + 1) : std::nullopt;
}

// One step of the search; past an end it comes round from the other one (`wrapped`).
std::optional<size_t> search_step(LogState& lg, bool forward) {
  auto dir = forward ? SearchDirection::Forward : SearchDirection::Backward;
  lg.wrapped = false;
  if (auto from = step_start(lg, forward)) {
    auto hit = lg.file->search(lg.search, *from, dir, true);
    if (hit && *hit) return **hit;
  }
  size_t n = lg.file->line_count();
  if (n == 0) return std::nullopt;
  auto hit = lg.file->search(lg.search, forward ? 0 : n - 1, dir, true);
  if (!hit || !*hit) return std::nullopt;
  lg.wrapped = true;
  return **hit;
}

void log_search(TuiState& st, bool forward) {
  auto& lg = log_state(st);
  if (!lg.file || lg.search.empty()) return;
  auto hit = search_step(lg, forward);
  if (!hit) return set_status(st, fmt::format("'{}' not found", lg.search), StatusLevel::Error);
  lg.match = *hit;
  lg.follow = false;
  scroll_to_line(lg.view, log_lines(lg), *hit);
}

void log_action(AppContext& ctx, TuiState& st, Action a) {
  auto& lg = log_state(st);
  switch (a) {
    case Action::Up:
      scroll(lg, -1);
      break;
    case Action::Down:
      scroll(lg, 1);
      break;
    case Action::PageUp:
      scroll(lg, -lg.view.height);
      break;
    case Action::PageDown:
      scroll(lg, lg.view.height);
      break;
    case Action::Top:
      scroll_to_top(lg.view);
      lg.follow = false;
      break;
    case Action::Bottom:
      lg.follow = true;
      scroll_to_bottom(lg.view, log_lines(lg));
      break;
    case Action::Follow:
      lg.follow = !lg.follow;
      if (lg.follow) scroll_to_bottom(lg.view, log_lines(lg));
      break;
    case Action::Wrap:
      toggle_wrap(lg.view);
      if (lg.follow) scroll_to_bottom(lg.view, log_lines(lg));
      break;
    case Action::ScrollLeft:
    case Action::ScrollRight:
    case Action::LineStart:
    case Action::LineEnd:
      if (lg.view.wrap) return set_status(st, "wrap is on: w turns it off to scroll sideways");
      scroll_sideways(lg.view, log_lines(lg), a);
      break;
    case Action::Times:
      lg.times = !lg.times;
      if (lg.times && !lg.marks_key)
        set_status(st, "times: a node's files keep none", StatusLevel::Error);
      break;
    case Action::Search:  // a new query; n and N go on with the current one
      st.modal.mode = Mode::Search;
      st.modal.input.set_text("");
      break;
    case Action::SearchNext:
      log_search(st, true);
      break;
    case Action::SearchPrev:
      log_search(st, false);
      break;
    case Action::Stderr:
      open_logs(ctx, st, !lg.stderr_stream);
      break;
    default:
      break;
  }
}

void render_logs(TuiState& st, Canvas& c, Rect r) {
  render_log_state(log_state(st), c, r);
}

void render_log_state(LogState& lg, Canvas& c, Rect r) {
  // The view's last row is its status line; following must show the file's last lines at the
  // size drawn now, not the size of the previous refresh.
  LogViewVm vm;
  vm.wrap = lg.view.wrap;
  vm.x_offset = lg.view.x;
  vm.follow = lg.follow;
  vm.search = lg.search;
  vm.current_match = lg.match;
  if (lg.wrapped) vm.note = "search wrapped";
  vm.times = lg.times;
  if (lg.times) vm.line_times = {"--:--:--"};  // the gutter's width, before the times are read
  lg.view.height = std::max(1, r.h - 1);
  lg.view.width = std::max(1, log_text_width(vm, r.w));
  if (lg.follow) scroll_to_bottom(lg.view, log_lines(lg));
  vm.line_times.clear();
  if (lg.file) {
    vm.total_lines = lg.file->line_count();
    vm.first_line = lg.view.top;
    vm.first_row = lg.view.top_row;
    std::vector<uint64_t> starts;
    if (auto lines = lg.file->read_lines(lg.view.top, static_cast<size_t>(r.h), &starts))
      for (const auto& l : *lines) vm.lines.push_back(to_log_line(l));
    if (lg.times)
      for (const auto& t : line_times(starts, marks_covering(lg.marks, starts), lg.ended))
        vm.line_times.push_back(line_time_text(t));
  }
  render_log_view(vm, c, r);
}

}  // namespace trainyard
