// The Tasks pane: a job's tasks, paged in the store (a job may hold 100,000); Enter opens the
// selected task's log.
#include <filesystem>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "enum_forms.hpp"
#include "local/task_environment.hpp"
#include "metric_chart.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

/// A task as its row shows it.
struct TaskRow {
  Task task;
  RowExtras extras;
  std::string synced;  ///< how old the job's task list is
  Timestamp now;       ///< the context clock's time when the row was read
};

std::string ran_for(const Task& t, Timestamp now) {
  const auto& e = t.execution_info;
  if (!e.start_time) return "-";
  return format_age(e.end_time.value_or(now) - *e.start_time);
}

std::string exit_text(const Task& t) {
  if (t.execution_info.exit_code) return std::to_string(*t.execution_info.exit_code);
  if (t.execution_info.failure_info) return t.execution_info.failure_info->code;
  return "";
}

// The main metric's sparkline and last value, from the tables' stream (main_metric_of_task).
std::pair<std::string, std::string> metric_cells(AppContext& ctx, const Task& t) {
  auto main = main_metric_of_task(ctx, t);
  if (main.name.empty()) {
    // A Batch task's log is read only when watched or pinned: "–" says it never was.
    bool unread = t.account != kLocalAccount &&
                  ctx.store->log_offset(t.account, t.job_id, t.id, "stdout.txt").value_or(0) == 0;
    return {"", unread ? "\u2013" : ""};
  }
  auto pts =
      ctx.store->metric_tail(t.account, t.job_id, t.id, main.name, main.stream, main.attempt, 8);
  if (!pts || pts->empty()) return {"", ""};
  Canvas c(8, 1);
  SparklineVm vm;
  for (const auto& p : *pts) vm.values.push_back(p.value);
  render_sparkline(vm, c, c.bounds());
  return {c.to_text(), fmt::format("{} {:.3g}", main.name, pts->back().value)};
}

std::string human_bytes(uint64_t b) {
  const char* units[] = {"B", "K", "M", "G", "T"};
  double v = static_cast<double>(b);
  int u = 0;
  while (v >= 1024 && u < 4) v /= 1024, ++u;
  if (u == 0) return fmt::format("{}B", b);
  return v < 10 ? fmt::format("{:.1f}{}", v, units[u]) : fmt::format("{:.0f}{}", v, units[u]);
}

// Disk a local run uses: its logs and attempts (one directory, not recursive: cheap per row).
std::string run_disk(AppContext& ctx, const Task& t) {
  if (t.account != kLocalAccount) return "";
  uint64_t total = 0;
  std::error_code ec;
  for (const auto& e :
       std::filesystem::directory_iterator(run_paths(ctx.data_dir, t.job_id, t.id).dir, ec))
    if (e.is_regular_file(ec)) total += e.file_size(ec);
  return human_bytes(total);
}

TableCell plain(std::string text) {
  return {std::move(text), std::nullopt};
}

// A requeue is a preemption (or a node taken away): worth the eye when there was one.
TableCell requeue_cell(const Task& t) {
  int n = t.execution_info.requeue_count;
  return {std::to_string(n), n ? std::optional(Role::StatusError) : std::nullopt};
}

const std::vector<ColumnDef<TaskRow>>& task_columns() {
  using R = const TaskRow&;
  static const std::vector<ColumnDef<TaskRow>> columns = {
      {"id",
       {"ID", 0, 8, 2},
       [](R r) {
         const auto& t = r.task;
         return plain(
             sanitize_text(t.display_name.empty() ? t.id : t.id + " (" + t.display_name + ")"));
       },
       [](R r) { return SortKey{r.task.id}; }},
      {"state",
       {"STATE", 10, 1, 0, Align::Left, 6},
       [](R r) { return enum_cell(to_wire(r.task.state), task_role(r.task)); }},
      {"exit",
       {"EXIT", 5, 1, 0, Align::Right},
       [](R r) {
         return TableCell{exit_text(r.task), task_role(r.task)};
       },
       [](R r) { return SortKey{int64_t{r.task.execution_info.exit_code.value_or(0)}}; }},
      {"try",
       {"TRY", 3, 1, 0, Align::Right},
       [](R r) { return plain(std::to_string(r.task.execution_info.retry_count)); },
       [](R r) { return SortKey{int64_t{r.task.execution_info.retry_count}}; }},
      {"requeues",
       {"RQ", 2, 1, 0, Align::Right},
       [](R r) { return requeue_cell(r.task); },
       [](R r) { return SortKey{int64_t{r.task.execution_info.requeue_count}}; },
       Shown::Batch},
      {"gpu", {"GPU", 3, 1, 0, Align::Right}, [](R r) { return plain(slots_text(r.task)); }},
      {"ran", {"RAN", 5, 1, 0, Align::Right}, [](R r) { return plain(ran_for(r.task, r.now)); }},
      {"trend",
       {"TREND", 8},
       [](R r) {
         return TableCell{r.extras.spark, Role::Sparkline};
       }},
      {"metric", {"METRIC", 12}, [](R r) { return plain(r.extras.metric); }},
      {"disk",
       {"DISK", 5, 1, 0, Align::Right},
       [](R r) {
         return TableCell{r.extras.disk, Role::Dim};
       },
       {},
       Shown::Local},
      // A Batch task has no local disk: its column says how old the row is instead.
      synced_column<TaskRow>(),
      {"command", {"COMMAND", 0, 10, 3}, [](R r) {
         return TableCell{sanitize_text(r.task.command_line), Role::Dim};
       }}};
  return columns;
}

class TasksPane : public Pane {
 public:
  std::string label() const override { return "Tasks"; }
  std::string name() const override { return "tasks"; }
  std::string title(const Frame& f) const override { return "Tasks · " + f.job; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    const auto& f = st.stack.back();
    std::vector<std::string> parts{f.account, "jobs"};
    if (!f.job.empty()) parts.push_back(f.job);
    return parts;
  }
  std::vector<Context> contexts() const override {
    return {Context::Tasks, Context::Table, Context::Global};
  }
  std::string focus_scope(const Frame& f) const override {
    return f.job.empty() ? kJobsScope : tasks_scope(f.job);
  }
  PollFocus poll_focus(const TuiState& st) const override {
    PollFocus p;
    p.job = st.stack.back().job;
    p.tasks_on_screen = rows_on_screen(st);
    return p;
  }

  std::optional<Frame> drill(const Frame& f, const std::string& key) const override {
    Frame next = f;
    next.task = key;
    next.view = View::Logs;
    return next;
  }
  bool select_for_detail(TuiState& st, Frame& next) const override {
    auto key = selected_key(st);
    if (!key) return false;
    next.task = *key;
    return true;
  }
  std::optional<std::string> selected_task(const TuiState& st) const override {
    return selected_key(st);
  }
  void store_changed() override { cache_.clear(); }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    const Frame& f = st.top();
    auto ages = load_sync_ages(ctx, f.account);
    auto columns = shown_columns(task_columns(), ages.batch);
    TablePage p;
    p.columns = layouts_of(columns);
    TaskQuery q;
    q.account = f.account;
    q.job = f.job;
    q.substring = f.cursor.filter;
    auto total = ctx.store->count_tasks(q);
    p.total = total ? static_cast<size_t>(*total) : 0;
    // Nothing to list: a filter with no match would otherwise scan the job's index a second time.
    if (total && first >= p.total) return p;
    q.offset = static_cast<int64_t>(first);
    q.limit = rows;
    auto tasks = ctx.store->tasks(q);
    if (!tasks) return p;
    if (cache_.size() > 4096) cache_.clear();  // bounded: scrolling 100,000 rows must not grow it
    for (auto& t : *tasks) {
      std::string synced = ages.batch ? ages.age(tasks_scope(t.job_id)) : "";
      p.keys.push_back(t.id);
      TaskRow row{std::move(t), {}, std::move(synced), ages.now};
      row.extras = extras(ctx, row.task);
      p.rows.push_back(table_row(columns, row));
    }
    return p;
  }

 private:
  // Cells that cost queries (sparkline, main metric, disk), kept until the store changes, so
  // keystrokes that show the same tasks again (filtering, scrolling) do not query them again.
  RowExtras extras(AppContext& ctx, const Task& t) {
    auto key = t.account + "/" + t.job_id + "/" + t.id;
    auto hit = cache_.find(key);
    if (hit == cache_.end()) {
      auto [spark, metric] = metric_cells(ctx, t);
      hit = cache_.emplace(key, RowExtras{spark, metric, run_disk(ctx, t)}).first;
    }
    return hit->second;
  }

  RowCache cache_;
};

}  // namespace

std::unique_ptr<Pane> make_tasks_pane() {
  return std::make_unique<TasksPane>();
}

}  // namespace trainyard
