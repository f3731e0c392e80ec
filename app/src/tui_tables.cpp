// Table panes: each loads only the visible page of rows from the store.
#include <algorithm>
#include <cmath>
#include <filesystem>

#include <fmt/format.h>

#include "core/sanitizer.hpp"
#include "enum_forms.hpp"
#include "local/task_environment.hpp"
#include "metric_chart.hpp"
#include "node_kind.hpp"
#include "sync/incremental_sync.hpp"
#include "sync/metric_parser.hpp"
#include "tui_state.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
namespace {

bool contains_ci(const std::string& hay, const std::string& needle) {
  if (needle.empty()) return true;
  auto it = std::search(hay.begin(), hay.end(), needle.begin(), needle.end(), [](char a, char b) {
    return std::tolower(static_cast<unsigned char>(a)) ==
           std::tolower(static_cast<unsigned char>(b));
  });
  return it != hay.end();
}

// Small lists are filtered in memory, then cut to the visible page.
template <typename T, typename RowFn>
void fill_page(TablePage& p, const std::vector<T>& items, const std::string& filter, size_t first,
               int rows, RowFn make_row) {
  std::vector<std::pair<std::string, TableRow>> matched;
  for (const auto& item : items) {
    auto [key, row] = make_row(item);
    std::string text;
    for (const auto& c : row.cells) text += c.text + " ";
    if (contains_ci(text, filter)) matched.emplace_back(key, row);
  }
  p.total = matched.size();
  for (size_t i = first; i < matched.size() && p.rows.size() < static_cast<size_t>(rows); ++i) {
    p.keys.push_back(matched[i].first);
    p.rows.push_back(matched[i].second);
  }
}

std::string age_of(const std::optional<Timestamp>& t, const Clock& clock) {
  if (!t) return "-";
  return format_age(clock.now() - *t);
}

std::string ran_for(const Task& t, const Clock& clock) {
  const auto& e = t.execution_info;
  if (!e.start_time) return "-";
  return format_age(e.end_time.value_or(clock.now()) - *e.start_time);
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

// A requeue is a preemption (or a node taken away): worth the eye when there was one.
TableCell requeue_cell(const Task& t) {
  int n = t.execution_info.requeue_count;
  return {std::to_string(n), n ? std::optional(Role::StatusError) : std::nullopt};
}

void load_tasks(AppContext& ctx, const Frame& f, size_t first, int rows, TablePage& p,
                RowCache& cache) {
  p.columns = {{"ID", 0, 8, 2},
               {"STATE", 10, 1, 0, Align::Left, 6},
               {"EXIT", 5, 1, 0, Align::Right},
               {"TRY", 3, 1, 0, Align::Right},
               {"GPU", 3, 1, 0, Align::Right},
               {"RAN", 5, 1, 0, Align::Right},
               {"TREND", 8},
               {"METRIC", 12},
               {"DISK", 5, 1, 0, Align::Right},
               {"COMMAND", 0, 10, 3}};
  // A Batch task has no local disk: its column says how old the row is instead.
  auto ages = load_sync_ages(ctx, f.account);
  if (ages.batch) p.columns[8] = {"SYNCED", 6, 1, 0, Align::Right};
  // Only Batch requeues (a preempted or removed node): its tasks count them next to retries.
  if (ages.batch) p.columns.insert(p.columns.begin() + 4, {"RQ", 2, 1, 0, Align::Right});
  TaskQuery q;
  q.account = f.account;
  q.job = f.job;
  q.substring = f.cursor.filter;
  auto total = ctx.store->count_tasks(q);
  p.total = total ? static_cast<size_t>(*total) : 0;
  // Nothing to list: a filter with no match would otherwise scan the job's index a second time.
  if (total && first >= p.total) return;
  q.offset = static_cast<int64_t>(first);
  q.limit = rows;
  auto tasks = ctx.store->tasks(q);
  if (!tasks) return;
  if (cache.size() > 4096) cache.clear();  // bounded: scrolling 100,000 rows must not grow it
  for (const auto& t : *tasks) {
    auto key = t.account + "/" + t.job_id + "/" + t.id;
    auto hit = cache.find(key);
    if (hit == cache.end()) {
      auto [spark, metric] = metric_cells(ctx, t);
      hit = cache.emplace(key, RowExtras{spark, metric, run_disk(ctx, t)}).first;
    }
    const auto& [spark, metric, disk] = hit->second;
    std::string last_cell = ages.batch ? ages.age(tasks_scope(t.job_id)) : disk;
    Role r = task_role(t);
    std::string name = t.display_name.empty() ? t.id : t.id + " (" + t.display_name + ")";
    TableRow row{{{sanitize_text(name), std::nullopt},
                  enum_cell(to_wire(t.state), r),
                  {exit_text(t), r},
                  {std::to_string(t.execution_info.retry_count), std::nullopt},
                  {slots_text(t), std::nullopt},
                  {ran_for(t, ctx.clock), std::nullopt},
                  {spark, Role::Sparkline},
                  {metric, std::nullopt},
                  {last_cell, Role::Dim},
                  {sanitize_text(t.command_line), Role::Dim}}};
    if (ages.batch) row.cells.insert(row.cells.begin() + 4, requeue_cell(t));
    p.rows.push_back(std::move(row));
    p.keys.push_back(t.id);
  }
}

void load_jobs(AppContext& ctx, const Frame& f, size_t first, int rows, TablePage& p,
               const PinnedJobs& pinned) {
  p.columns = {{"JOB", 0, 8, 2},
               {"STATE", 11},
               {"POOL", 0, 6, 1},
               {"QUEUED", 7, 1, 0, Align::Right},
               {"RUNNING", 8, 1, 0, Align::Right},
               {"DONE", 6, 1, 0, Align::Right},
               {"FAILED", 7, 1, 0, Align::Right},
               {"AGE", 5, 1, 0, Align::Right}};
  auto ages = load_sync_ages(ctx, f.account);
  if (ages.batch) p.columns.push_back({"SYNCED", 6, 1, 0, Align::Right});
  auto jobs = ctx.store->jobs(f.account);
  if (!jobs) return;
  const std::set<std::string>* pins = nullptr;
  if (auto it = pinned.find(f.account); it != pinned.end()) pins = &it->second;
  fill_page(p, *jobs, f.cursor.filter, first, rows, [&](const Job& j) {
    auto counts = ctx.store->task_counts(f.account, j.id);
    auto n = [&](TaskState s) { return counts ? (*counts)[s] : 0; };
    int64_t bad = ctx.store->failed_task_count(f.account, j.id).value_or(0);
    TableRow row{
        {{(pins && pins->count(j.id) ? "+ " : "") + sanitize_text(j.id), std::nullopt},
         {std::string(to_wire(j.state)), Role::StateActive},
         {j.pool_id, std::nullopt},
         {std::to_string(n(TaskState::Active)), std::nullopt},
         {std::to_string(n(TaskState::Running) + n(TaskState::Preparing)), Role::StateRunning},
         {std::to_string(n(TaskState::Completed) - bad), Role::StateSuccess},
         {std::to_string(bad), bad ? std::optional(Role::StateFailure) : std::nullopt},
         {age_of(j.creation_time, ctx.clock), std::nullopt}}};
    if (ages.batch) row.cells.push_back({ages.age(tasks_scope(j.id)), Role::Dim});
    return std::pair{j.id, row};
  });
}

void load_accounts(AppContext& ctx, const Frame& f, size_t first, int rows, TablePage& p) {
  p.columns = {{"ACCOUNT", 0, 8, 2}, {"KIND", 9}, {"ENDPOINT", 0, 8, 3}};
  auto accounts = ctx.store->accounts();
  if (!accounts) return;
  fill_page(p, *accounts, f.cursor.filter, first, rows, [](const Account& a) {
    TableRow row{{{a.name, std::nullopt},
                  {to_string(a.kind), std::nullopt},
                  {a.endpoint.empty() ? "this machine" : a.endpoint, Role::Dim}}};
    return std::pair{a.name, row};
  });
}

void load_pools(AppContext& ctx, const Frame& f, size_t first, int rows, TablePage& p) {
  // Nodes as current/target, dedicated and Spot apart; the widths let a Batch account's nine
  // columns fit 80 columns.
  p.columns = {{"POOL", 0, 8, 2},
               {"STATE", 8},
               {"ALLOCATION", 10},
               {"DEDICATED", 9, 1, 0, Align::Right},
               {"SPOT", 5, 1, 0, Align::Right},
               {"SLOTS/NODE", 10, 1, 0, Align::Right},
               {"VM SIZE", 0, 6, 1}};
  auto ages = load_sync_ages(ctx, f.account);
  if (ages.batch) {
    p.columns.push_back({"HEALTH", 0, 8, 2});
    p.columns.push_back({"SYNCED", 6, 1, 0, Align::Right});
  }
  auto pools = ctx.store->pools(f.account);
  if (!pools) return;
  fill_page(p, *pools, f.cursor.filter, first, rows, [&](const Pool& pl) {
    TableRow row{
        {{pl.id, std::nullopt},
         {std::string(to_wire(pl.state)), Role::StateActive},
         {std::string(to_wire(pl.allocation_state)), std::nullopt},
         {fmt::format("{}/{}", pl.current_dedicated_nodes, pl.target_dedicated_nodes),
          std::nullopt},
         {fmt::format("{}/{}", pl.current_low_priority_nodes, pl.target_low_priority_nodes),
          std::nullopt},
         {std::to_string(pl.task_slots_per_node), std::nullopt},
         {pl.vm_size, std::nullopt}}};
    if (ages.batch) {
      auto health = pool_health(ctx, pl);
      row.cells.push_back({sanitize_text(health),
                           health.empty() ? std::nullopt : std::optional(Role::StateFailure)});
      row.cells.push_back({ages.age(kPoolsScope), Role::Dim});
    }
    return std::pair{pl.id, row};
  });
}

void load_nodes(AppContext& ctx, const Frame& f, size_t first, int rows, TablePage& p) {
  p.columns = {{"NODE", 0, 8, 2},  {"STATE", 19, 1, 0, Align::Left, 8}, {"KIND", 9},
               {"SCHEDULING", 10}, {"SLOTS", 7, 1, 0, Align::Right},    {"IP", 0, 9, 1}};
  auto ages = load_sync_ages(ctx, f.account);
  if (ages.batch) {
    p.columns.push_back({"ERROR", 0, 8, 3});
    p.columns.push_back({"SYNCED", 6, 1, 0, Align::Right});
  }
  auto nodes = ctx.store->nodes(f.account, f.pool);
  if (!nodes) return;
  // The local node's live counts come from the tasks, not from a stored copy.
  if (f.account == kLocalAccount)
    for (auto& n : *nodes) fill_local_node_counts(*ctx.store, n);
  fill_page(p, *nodes, f.cursor.filter, first, rows, [&](const Node& n) {
    bool busy = n.state == NodeState::Running;
    TableRow row{{{sanitize_text(n.id), std::nullopt},
                  enum_cell(to_wire(n.state), busy ? Role::StateRunning : Role::StateActive),
                  {node_kind(n), std::nullopt},
                  {std::string(to_wire(n.scheduling_state)), std::nullopt},
                  {fmt::format("{}/{}", n.running_task_slots_count, n.task_slots), std::nullopt},
                  {n.ip_address, std::nullopt}}};
    if (ages.batch) {
      row.cells.push_back({sanitize_text(n.error), Role::StateFailure});
      row.cells.push_back({ages.age(nodes_scope(n.pool_id)), Role::Dim});
    }
    return std::pair{n.id, row};
  });
}

}  // namespace

Role task_role(const Task& t) {
  switch (t.state) {
    case TaskState::Active:
      return Role::StateActive;
    case TaskState::Preparing:
      return Role::StatePreparing;
    case TaskState::Running:
      return Role::StateRunning;
    case TaskState::Completed:
      return t.execution_info.result == TaskResult::Success ? Role::StateSuccess
                                                            : Role::StateFailure;
  }
  return Role::Row;
}

TablePage load_table(AppContext& ctx, TuiState& st, size_t first, int rows) {
  const Frame& f = st.top();
  RowCache& cache = st.row_cache;
  TablePage p;
  switch (f.view) {
    case View::Accounts:
      load_accounts(ctx, f, first, rows, p);
      break;
    case View::Pools:
      load_pools(ctx, f, first, rows, p);
      break;
    case View::Nodes:
      load_nodes(ctx, f, first, rows, p);
      break;
    case View::Jobs:
      load_jobs(ctx, f, first, rows, p, st.pinned);
      break;
    case View::Tasks:
      load_tasks(ctx, f, first, rows, p, cache);
      break;
    default:
      break;
  }
  return p;
}

TableVm page_table_vm(const TuiState& st, const std::string& empty_text) {
  const auto& cursor = st.stack.back().cursor;
  TableVm vm;
  vm.columns = st.page.columns;
  vm.rows = st.page.rows;
  vm.first_row = cursor.first;
  vm.total_rows = st.page.total;
  if (st.page.total) vm.selected = cursor.selected;
  vm.empty_text = cursor.filter.empty() ? empty_text : "no rows match the filter";
  return vm;
}

std::string view_title(const Frame& f) {
  switch (f.view) {
    case View::Accounts:
      return "Accounts";
    case View::Pools:
      return "Pools · " + f.account;
    case View::Nodes:
      return "Nodes · " + f.pool;
    case View::Jobs:
      return "Jobs · " + f.account;
    case View::Tasks:
      return "Tasks · " + f.job;
    case View::Logs:
      if (!f.node.empty()) return "Logs · " + f.pool + "/" + f.node;
      return "Logs · " + f.job + "/" + f.task;
    case View::Detail:
      return "Task · " + f.job + "/" + f.task;
    case View::Gpus:
      return "GPUs";
    case View::Sweep:
      return "Sweep · " + f.job;
  }
  return "";
}

std::vector<Context> contexts_for(View v) {
  switch (v) {
    case View::Accounts:
      return {Context::Accounts, Context::Table, Context::Global};
    case View::Pools:
      return {Context::Pools, Context::Table, Context::Global};
    case View::Nodes:
      return {Context::Nodes, Context::Table, Context::Global};
    case View::Jobs:
      return {Context::Jobs, Context::Table, Context::Global};
    case View::Tasks:
      return {Context::Tasks, Context::Table, Context::Global};
    case View::Logs:
      return {Context::Logs, Context::Global};
    case View::Detail:
      return {Context::Detail, Context::Global};
    case View::Gpus:
      return {Context::Gpus, Context::Global};
    case View::Sweep:
      return {Context::Sweep, Context::Table, Context::Global};
    default:
      return {Context::Table, Context::Global};
  }
}

}  // namespace trainyard
