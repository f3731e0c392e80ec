// The Tasks pane: a job's tasks, paged in the store (a job may hold 100,000); Enter opens the
// selected task's log.
#include <filesystem>
#include <limits>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "enum_forms.hpp"
#include "local/task_environment.hpp"
#include "metric_chart.hpp"
#include "sync/incremental_sync.hpp"
#include "task_filter_index.hpp"
#include "task_filter_sql.hpp"
#include "tui_bulk_spec.hpp"
#include "tui_columns.hpp"
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
  return format_run_time(e.end_time.value_or(now) - *e.start_time);
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

// `state:failed` and `state:completed` both name a failed task.
std::vector<std::string> state_values(const Task& t) {
  std::vector<std::string> out{std::string(to_wire(t.state))};
  if (task_outcome(t) == TaskOutcome::Failure) out.push_back("failed");
  return out;
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
       {.title = "ID", .min_width = 8, .flex = 2, .cut = Cut::Middle},
       [](R r) {
         const auto& t = r.task;
         return plain(
             sanitize_text(t.display_name.empty() ? t.id : t.id + " (" + t.display_name + ")"));
       },
       [](R r) { return SortKey{r.task.id}; }},
      {"state",
       {"STATE", 10, 1, 0, Align::Left, 6},
       [](R r) { return enum_cell(task_state_text(r.task), task_role(r.task)); },
       [](R r) { return SortKey{int64_t{static_cast<int>(r.task.state)}}; },
       Shown::Always,
       [](R r) { return state_values(r.task); }},
      {"exit",
       {"EXIT", 5, 1, 0, Align::Right},
       [](R r) {
         return TableCell{exit_text(r.task), task_role(r.task)};
       },
       // No exit code sorts first, as in the store.
       [](R r) {
         auto code = r.task.execution_info.exit_code;
         return SortKey{code ? int64_t{*code} : std::numeric_limits<int64_t>::min()};
       }},
      {"try",
       {.title = "TRY", .width = 3, .align = Align::Right, .drop = 4},
       [](R r) { return plain(std::to_string(r.task.execution_info.retry_count)); },
       [](R r) { return SortKey{int64_t{r.task.execution_info.retry_count}}; }},
      {"requeues",
       {.title = "RQ", .width = 2, .align = Align::Right, .drop = 6},
       [](R r) { return requeue_cell(r.task); },
       [](R r) { return SortKey{int64_t{r.task.execution_info.requeue_count}}; },
       Shown::Batch},
      {"gpu",
       {.title = "GPU", .width = 3, .align = Align::Right, .drop = 4},
       [](R r) { return plain(slots_text(r.task)); }},
      {"ran",
       {.title = "RAN", .width = 6, .align = Align::Right, .drop = 2},
       [](R r) { return plain(ran_for(r.task, r.now)); }},
      {"trend",
       {.title = "TREND", .width = 8, .drop = 5},
       [](R r) {
         return TableCell{r.extras.spark, Role::Sparkline};
       }},
      // A metric's number is never cut: its name shrinks first.
      {"metric",
       {.title = "METRIC", .min_width = 12, .flex = 1, .drop = 1, .cut = Cut::LastWord},
       [](R r) { return plain(r.extras.metric); }},
      {"disk",
       {.title = "DISK", .width = 5, .align = Align::Right, .drop = 8},
       [](R r) {
         return TableCell{r.extras.disk, Role::Dim};
       },
       {},
       Shown::Local},
      // A Batch task has no local disk: its column says how old the row is instead.
      synced_column<TaskRow>(),
      {"node",
       {.title = "NODE", .min_width = 6, .flex = 1, .drop = 5, .cut = Cut::Middle},
       [](R r) { return plain(r.task.node_info ? sanitize_text(r.task.node_info->node_id) : "-"); },
       {},
       Shown::Always,
       {},
       true},
      {"created",
       {.title = "CREATED", .width = 19, .drop = 9},
       [](R r) { return plain(wide_time(r.task.creation_time)); },
       {},
       Shown::Always,
       {},
       true},
      {"started",
       {.title = "STARTED", .width = 19, .drop = 9},
       [](R r) { return plain(wide_time(r.task.execution_info.start_time)); },
       {},
       Shown::Always,
       {},
       true},
      {"ended",
       {.title = "ENDED", .width = 19, .drop = 9},
       [](R r) { return plain(wide_time(r.task.execution_info.end_time)); },
       {},
       Shown::Always,
       {},
       true},
      {"command", {.title = "COMMAND", .min_width = 10, .flex = 3, .drop = 1}, [](R r) {
         return TableCell{sanitize_text(r.task.command_line), Role::Dim};
       }}};
  return columns;
}

// What names one list of tasks: its job, filter and sort (pages of it share a count and keys).
std::string list_key(const Frame& f) {
  const auto& c = f.cursor;
  return f.account + '\x1f' + f.job + '\x1f' + c.filter + '\x1f' + c.sort +
         (c.descending ? "-" : "+");
}

class TasksPane : public TaskRowsPane {
 public:
  std::string label() const override { return "Tasks"; }
  std::string name() const override { return "tasks"; }
  std::string row_kind() const override { return "task"; }
  const std::vector<BulkSpec>& bulk_specs(bool local) const override {
    return task_bulk_specs(local);
  }
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

  void store_changed() override {
    cache_.clear();
    last_.reset();
    index_.reset();
  }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    const Frame& f = st.top();
    auto ages = load_sync_ages(ctx, f.account);
    Page page{shown_columns(task_columns(), ages.batch), ages, {}, first, rows};
    auto& p = page.out;
    describe_columns(p, page.columns);
    for (const auto* c : page.columns)
      if (task_order_for(c->id)) p.sortable.push_back(c->id);
    mark_sorted_column(p, f.cursor);
    auto filter = parse_row_filter(f.cursor.filter);
    if (!filter) return p;  // the status line says why; nothing matches
    TaskQuery q;
    q.account = f.account;
    q.job = f.job;
    RowFilter rest{add_task_conditions(*filter, q, p.column_ids)};
    if (auto order = task_order_for(f.cursor.sort)) {
      q.order = *order;
      q.descending = f.cursor.descending;
    }
    if (rest.terms.empty())
      page_from_store(ctx, page, q, list_key(f));
    else
      page_in_memory(ctx, page, q, rest);
    return std::move(p);
  }

 private:
  /// A page being read: the shown columns, the sync ages, the page and the rows asked for.
  struct Page {
    std::vector<const ColumnDef<TaskRow>*> columns;
    SyncAges ages;
    TablePage out;
    size_t first = 0;
    int rows = 0;
  };

  void add_row(AppContext& ctx, Page& page, Task t) {
    std::string synced = page.ages.batch ? page.ages.age(tasks_scope(t.job_id)) : "";
    page.out.keys.push_back(t.id);
    TaskRow row{std::move(t), {}, std::move(synced), page.ages.now};
    row.extras = extras(ctx, row.task);
    page.out.rows.push_back(table_row(page.columns, row));
  }

  // Everything the filter asks the store can answer: a count (kept while the same list is
  // paged) and one page, read by its key from a row of the last page when it is near.
  void page_from_store(AppContext& ctx, Page& page, TaskQuery q, const std::string& list) {
    if (const auto* index = filter_index(ctx, q))
      return page_from_index(ctx, page, q, list, *index);
    if (!last_ || last_->list != list || last_->indexed)
      last_ = LastPage{list, 0, count(ctx, q), {}, false, {}};
    size_t total = page.out.total = last_->total;
    // Nothing to list: a filter with no match would otherwise scan the job's index a second time.
    if (page.first >= total) return;
    q.limit = static_cast<int64_t>(std::min(static_cast<size_t>(page.rows), total - page.first));
    position(q, page.first, static_cast<size_t>(q.limit));
    auto tasks = ctx.store->tasks(q);
    if (!tasks) return;
    last_->first = page.first;
    last_->tasks = *tasks;
    bound_cache();
    for (auto& t : *tasks) add_row(ctx, page, std::move(t));
  }

  // A filtered list the job's index answers: its matches found in memory (kept while the same
  // list is paged), then the page's tasks read by id, where the store would pass over the
  // matches (or the job) at each keystroke.
  void page_from_index(AppContext& ctx, Page& page, const TaskQuery& q, const std::string& list,
                       const TaskFilterIndex& index) {
    if (!last_ || last_->list != list || !last_->indexed) {
      auto rows = index.matching_rows(q);
      size_t total = rows.size();
      last_ = LastPage{list, 0, total, {}, true, std::move(rows)};
    }
    page.out.total = last_->total;
    size_t end = std::min(last_->total, page.first + static_cast<size_t>(page.rows));
    std::vector<Task> tasks;
    for (size_t i = page.first; i < end; ++i) {
      auto t = ctx.store->task(q.account, q.job, index.id(last_->rows[i]));
      if (!t) return;
      if (*t) tasks.push_back(std::move(**t));  // gone since the index was read: left out
    }
    last_->first = page.first;
    last_->tasks = tasks;
    bound_cache();
    for (auto& t : tasks) add_row(ctx, page, std::move(t));
  }

  // Where the page of `count` rows at `first` starts: the top, the bottom (the list read from
  // its end), next to the last page (keyset, from the row before it or after it), else OFFSET.
  void position(TaskQuery& q, size_t first, size_t count) const {
    const auto& last = *last_;
    size_t end = last.first + last.tasks.size();
    if (first == 0) return;
    if (first + count >= last.total) {
      q.from_end = true;
    } else if (!q.job.empty() && first > last.first && first - 1 < end) {
      q.seek = TaskSeek{last.tasks[first - 1 - last.first], false};
    } else if (!q.job.empty() && first < last.first && first + count >= last.first &&
               first + count < end) {
      q.seek = TaskSeek{last.tasks[first + count - last.first], true};
    } else {
      q.offset = static_cast<int64_t>(first);
    }
  }

  // Terms the store cannot answer (a regex, a glob, another column): the tasks the store
  // narrowed to, in its order, matched against their rows (without the cells that cost
  // queries: trend, metric, disk).
  void page_in_memory(AppContext& ctx, Page& page, const TaskQuery& q, const RowFilter& rest) {
    auto tasks = ctx.store->tasks(q);
    if (!tasks) return;
    std::vector<size_t> kept;
    for (size_t i = 0; i < tasks->size(); ++i) {
      TaskRow row{(*tasks)[i], {}, "", page.ages.now};
      if (passes(rest, page.columns, row, table_row(page.columns, row))) kept.push_back(i);
    }
    page.out.total = kept.size();
    bound_cache();
    for (size_t i = page.first; i < kept.size() && page.out.rows.size() < size_t(page.rows); ++i)
      add_row(ctx, page, std::move((*tasks)[kept[i]]));
  }

  // A filtered count from the job's tasks in memory: the store would pass over every matching
  // task at each keystroke.
  size_t count(AppContext& ctx, const TaskQuery& q) {
    if (const auto* index = filter_index(ctx, q)) return static_cast<size_t>(index->count(q));
    auto total = ctx.store->count_tasks(q);
    return total ? static_cast<size_t>(*total) : 0;
  }

  // The job's tasks in memory when `q` is a filter they answer (read once, until the store
  // changes); none for an unfiltered list, which the ordering index pages at once.
  const TaskFilterIndex* filter_index(AppContext& ctx, const TaskQuery& q) {
    bool filtered = !q.substring.empty() || !q.conditions.empty();
    if (!filtered || q.job.empty() || !TaskFilterIndex::answers(q)) return nullptr;
    if (!index_ || index_job_ != q.account + '\x1f' + q.job) {
      index_.reset();
      if (auto read = TaskFilterIndex::read(*ctx.store, q.account, q.job))
        index_ = std::move(*read);
      index_job_ = q.account + '\x1f' + q.job;
    }
    return index_ ? &*index_ : nullptr;
  }

  void bound_cache() {
    if (cache_.size() > 4096) cache_.clear();  // scrolling 100,000 rows must not grow it
  }

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

  /// The last page read: the list it is of, its count, and its rows (keys for the next page);
  /// for a list the index answered, the index rows of all its matches.
  struct LastPage {
    std::string list;
    size_t first = 0;
    size_t total = 0;
    std::vector<Task> tasks;
    bool indexed = false;
    std::vector<uint32_t> rows;
  };
  std::optional<LastPage> last_;
  std::optional<TaskFilterIndex> index_;  ///< the tasks of job index_job_, for filters
  std::string index_job_;
};

}  // namespace

std::unique_ptr<Pane> make_tasks_pane() {
  return std::make_unique<TasksPane>();
}

}  // namespace trainyard
