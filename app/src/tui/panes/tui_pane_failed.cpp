// The Failed pane: a job's failed tasks with their exit code and failure info, the latest first,
// and the tail of the selected one's stderr (a Batch task's cache copy, which the poller fetches
// while the task is selected). Enter opens its logs, `d` its detail, `a` retries it.
#include <fmt/format.h>

#include <algorithm>
#include <fstream>

#include "core/sanitizer.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_state.hpp"

namespace trainyard {
namespace {

/// A failed task as its row shows it.
struct FailedRow {
  Task task;
  Timestamp now;
};

const FailureInfo* failure_of(const FailedRow& r) {
  const auto& f = r.task.execution_info.failure_info;
  return f ? &*f : nullptr;
}

TableCell failure_text(const FailedRow& r, std::string FailureInfo::*field) {
  const auto* f = failure_of(r);
  return {f ? sanitize_text(f->*field) : "-", std::nullopt};
}

const std::vector<ColumnDef<FailedRow>>& failed_columns() {
  using R = const FailedRow&;
  static const std::vector<ColumnDef<FailedRow>> columns = {
      {"task",
       {.title = "TASK", .min_width = 8, .flex = 1, .cut = Cut::Middle},
       [](R r) { return TableCell{sanitize_text(r.task.id)}; }},
      {"exit",
       {"EXIT", 5, 1, 0, Align::Right},
       [](R r) {
         const auto& code = r.task.execution_info.exit_code;
         return TableCell{code ? std::to_string(*code) : "-", Role::StateFailure};
       },
       [](R r) { return SortKey{int64_t{r.task.execution_info.exit_code.value_or(0)}}; }},
      {"category",
       {.title = "CATEGORY", .width = 11, .drop = 3},
       [](R r) {
         const auto* f = failure_of(r);
         return TableCell{f ? std::string(to_wire(f->category)) : "-"};
       }},
      {"code",
       {.title = "CODE", .min_width = 6, .flex = 1, .drop = 2},
       [](R r) { return failure_text(r, &FailureInfo::code); }},
      {"message",
       {.title = "MESSAGE", .min_width = 8, .flex = 4, .drop = 1},
       [](R r) { return failure_text(r, &FailureInfo::message); }},
      {"ended", {"ENDED", 5, 1, 0, Align::Right}, [](R r) {
         return TableCell{age_of(r.task.execution_info.end_time, r.now)};
       }}};
  return columns;
}

/// The selected task's stderr tail, read on the reader's connection.
struct FailedData : PaneData {
  std::string task;  ///< whose tail this is
  bool found = false;
  std::vector<std::string> lines;  ///< sanitized, oldest first
};

// The last `max_lines` lines of the last 16 KiB of `path`; none when it cannot be read.
std::optional<std::vector<std::string>> tail_lines(const std::string& path, size_t max_lines) {
  std::ifstream in(path, std::ios::binary | std::ios::ate);
  if (path.empty() || !in) return std::nullopt;
  auto size = static_cast<int64_t>(in.tellg());
  auto from = std::max<int64_t>(0, size - 16 * 1024);
  in.seekg(from);
  std::string bytes(static_cast<size_t>(size - from), '\0');
  in.read(bytes.data(), static_cast<std::streamsize>(bytes.size()));
  // A tail that starts mid-line drops that partial line.
  if (from > 0 && bytes.find('\n') != std::string::npos) bytes.erase(0, bytes.find('\n') + 1);
  std::vector<std::string> out;
  for (auto& l : sanitize_lines(bytes)) out.push_back(std::move(l.text));
  while (!out.empty() && out.back().empty()) out.pop_back();
  if (out.size() > max_lines) out.erase(out.begin(), out.end() - static_cast<long>(max_lines));
  return out;
}

// The table's height: its header and rows, at least 3 rows' room, at most what leaves the
// stderr tail a third of the body (4 rows at least: its title and 3 lines); the tail takes the
// rest, so a job with few failures shows more of the selected one's stderr.
int table_height(size_t rows, Rect body) {
  int most = body.h - std::min(body.h - 3, std::max(4, body.h / 3));
  int want = static_cast<int>(std::min<size_t>(rows, static_cast<size_t>(body.h))) + 1;
  return std::clamp(want, std::min(4, most), most);
}

class FailedPane : public TaskRowsPane {
 public:
  std::string label() const override { return "Failed"; }
  std::string name() const override { return "failed"; }
  std::string title(const Frame& f) const override { return "Failed tasks · " + f.job; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    return {f.account, "jobs", f.job, "failed"};
  }
  // A failed task takes the Tasks pane's keys: logs, detail, retry, delete.
  std::vector<Context> contexts() const override {
    return {Context::Tasks, Context::Table, Context::Global};
  }
  std::string focus_scope(const Frame& f) const override { return tasks_scope(f.job); }
  // The selected task's stderr is followed into the cache, so its tail appears.
  PollFocus poll_focus(const TuiState& st) const override {
    PollFocus p;
    p.job = st.stack.back().job;
    if (auto key = selected_key(st)) {
      p.log_task = *key;
      p.log_file = "stderr.txt";
    }
    return p;
  }
  std::string empty_text(const TuiState&) const override { return "no failed task in this job"; }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    const Frame& f = st.top();
    TablePage p;
    auto batch = f.account != kLocalAccount;
    p.columns = layouts_of(shown_columns(failed_columns(), batch));
    auto tasks = ctx.store->failed_tasks(f.account, f.job);
    if (!tasks) return p;
    std::vector<FailedRow> items;
    auto now = ctx.clock.now();
    for (auto& t : *tasks) items.push_back({std::move(t), now});
    fill_page(
        p, failed_columns(), batch, items, [](const FailedRow& r) { return r.task.id; }, f.cursor,
        first, rows);
    return p;
  }
  std::shared_ptr<const PaneData> read_data(AppContext& ctx, TuiState& st) override {
    auto d = std::make_shared<FailedData>();
    auto key = selected_key(st);
    if (!key) return d;
    d->task = *key;
    Frame f = st.top();
    f.task = *key;
    if (auto lines = tail_lines(log_path(ctx, f, true), 200)) {
      d->found = true;
      d->lines = std::move(*lines);
    }
    return d;
  }
  Rect table_rect(const TuiState& st, Rect body) const override {
    return body.top(table_height(st.table.page.total, body));
  }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    Rect table = table_rect(st, body);
    Pane::render(ctx, st, c, table);
    render_tail(st, c, body.drop_top(table.h));
  }

 private:
  void render_tail(const TuiState& st, Canvas& c, Rect r) const {
    auto key = selected_key(st);
    const auto* d = shown_data<FailedData>(st);
    if (!key || r.h < 2) return;
    c.draw_text_truncated(r.x, r.y, "stderr of " + sanitize_text(*key) + " (last lines)",
                          Role::Title, r.w);
    Rect lines = r.drop_top(1);
    if (!d || d->task != *key) return;  // the reader's answer is on its way
    if (!d->found || d->lines.empty()) {
      bool remote = st.stack.back().account != kLocalAccount;
      std::string why = d->found ? "stderr is empty"
                        : remote ? "not fetched yet: the poller is fetching it"
                                 : "no stderr file";
      c.draw_text(lines.x, lines.y, why, Role::Dim, lines.w);
      return;
    }
    size_t shown = std::min(d->lines.size(), static_cast<size_t>(lines.h));
    for (size_t i = 0; i < shown; ++i)
      c.draw_text_truncated(lines.x, lines.y + static_cast<int>(i),
                            d->lines[d->lines.size() - shown + i], Role::LogText, lines.w);
  }
};

}  // namespace

std::unique_ptr<Pane> make_failed_pane() {
  return std::make_unique<FailedPane>();
}

}  // namespace trainyard
