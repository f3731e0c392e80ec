// The Jobs pane: an account's jobs with their tasks counted by state; Enter opens the tasks.
#include <fmt/format.h>

#include <cmath>

#include "core/sanitizer.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_bulk_spec.hpp"
#include "tui_columns.hpp"
#include "tui_costs.hpp"
#include "tui_state.hpp"
#include "widgets/heatmap.hpp"

namespace trainyard {
namespace {

/// A job as its row shows it.
struct JobRow {
  Job job;
  int64_t queued = 0, running = 0, done = 0, failed = 0, total = 0;
  bool pinned = false;
  std::string synced;           ///< how old the job's task list is
  Timestamp now;                ///< the context clock's time when the row was read
  std::optional<JobCost> cost;  ///< as the cost watcher last worked it out (Batch)
};

TableCell count_cell(int64_t n, std::optional<Role> role) {
  return {std::to_string(n), role};
}

// `███×░░░░ 50%`: the finished share of the job's tasks, failures as ×; narrow: `50%`.
TableCell progress_cell(const JobRow& r) {
  ProgressVm vm{r.done, r.failed, r.total};
  auto percent = progress_percent(vm);
  // A job with no task yet has no progress to colour.
  Role role = r.total == 0        ? Role::Dim
              : r.failed          ? Role::StateFailure
              : r.done == r.total ? Role::StateSuccess
                                  : Role::StateRunning;
  return {progress_bar(vm, 8) + " " + percent, role, percent};
}

// `12.35`, in the currency the pane's cost line names; `-` while unknown.
TableCell money_cell(const std::optional<double>& v) {
  if (!v) return {"-", Role::Dim};
  return {fmt::format("{:.2f}", *v)};
}

// In cents, unknown first.
SortKey money_key(const std::optional<double>& v) {
  return SortKey{v ? static_cast<int64_t>(std::llround(*v * 100)) : int64_t{-1}};
}

const std::vector<ColumnDef<JobRow>>& job_columns() {
  using R = const JobRow&;
  static const std::vector<ColumnDef<JobRow>> columns = {
      {"job",
       {.title = "JOB", .min_width = 8, .flex = 2, .cut = Cut::Middle},
       [](R r) { return TableCell{(r.pinned ? "+ " : "") + sanitize_text(r.job.id)}; },
       [](R r) { return SortKey{r.job.id}; }},
      {"state",
       {"STATE", 11},
       [](R r) {
         return TableCell{std::string(to_wire(r.job.state)), Role::StateActive};
       }},
      {"pool",
       {.title = "POOL", .min_width = 6, .flex = 1, .drop = 3, .cut = Cut::Middle},
       [](R r) { return TableCell{r.job.pool_id}; }},
      {"progress",
       {.title = "PROGRESS", .width = 13, .short_width = 4, .drop = 2},
       progress_cell,
       [](R r) { return SortKey{r.total ? (r.done + r.failed) * 1000 / r.total : int64_t{-1}}; }},
      {"queued",
       {.title = "QUEUED", .width = 7, .align = Align::Right, .drop = 4},
       [](R r) { return count_cell(r.queued, std::nullopt); },
       [](R r) { return SortKey{r.queued}; }},
      {"running",
       {"RUNNING", 8, 1, 0, Align::Right},
       [](R r) { return count_cell(r.running, Role::StateRunning); },
       [](R r) { return SortKey{r.running}; }},
      {"done",
       {"DONE", 6, 1, 0, Align::Right},
       [](R r) { return count_cell(r.done, Role::StateSuccess); },
       [](R r) { return SortKey{r.done}; }},
      {"failed",
       {"FAILED", 7, 1, 0, Align::Right},
       [](R r) {
         return count_cell(r.failed, r.failed ? std::optional(Role::StateFailure) : std::nullopt);
       },
       [](R r) { return SortKey{r.failed}; }},
      {"age",
       {.title = "AGE", .width = 5, .align = Align::Right, .drop = 5},
       [](R r) { return TableCell{age_of(r.job.creation_time, r.now)}; },
       [](R r) {
         auto t = r.job.creation_time;
         return SortKey{t ? -static_cast<int64_t>(t->time_since_epoch().count()) : int64_t{0}};
       }},
      {"created",
       {.title = "CREATED", .width = 19, .drop = 9},
       [](R r) { return TableCell{wide_time(r.job.creation_time)}; },
       {},
       Shown::Always,
       {},
       true},
      {"changed",
       {.title = "STATE SINCE", .width = 19, .drop = 9},
       [](R r) { return TableCell{wide_time(r.job.state_transition_time)}; },
       {},
       Shown::Always,
       {},
       true},
      synced_column<JobRow>(),
      {"cost",
       {.title = "COST", .width = 9, .align = Align::Right, .drop = 1},
       [](R r) { return money_cell(r.cost ? r.cost->so_far : std::nullopt); },
       [](R r) { return money_key(r.cost ? r.cost->so_far : std::nullopt); },
       Shown::Batch},
      {"projected",
       {.title = "PROJECTED", .width = 10, .align = Align::Right, .drop = 7},
       [](R r) { return money_cell(r.cost ? r.cost->projected : std::nullopt); },
       [](R r) { return money_key(r.cost ? r.cost->projected : std::nullopt); },
       Shown::Batch,
       {},
       true}};
  return columns;
}

// A job's tasks counted by state (queued; running or preparing; completed well; failed);
// `counts` null: it has none.
JobRow job_row(Job j, const JobTaskCounts* counts, bool pinned, const SyncAges& ages,
               const AccountCosts* costs) {
  JobRow r;
  auto n = [&](TaskState s) { return counts ? counts->by_state.at(s) : 0; };
  r.failed = counts ? counts->failed : 0;
  r.queued = n(TaskState::Active);
  r.running = n(TaskState::Running) + n(TaskState::Preparing);
  r.done = n(TaskState::Completed) - r.failed;
  if (counts)
    for (const auto& [state, count] : counts->by_state) r.total += count;
  r.pinned = pinned;
  r.now = ages.now;
  if (ages.batch) r.synced = ages.age(tasks_scope(j.id));
  if (costs)
    if (auto it = costs->jobs.find(j.id); it != costs->jobs.end()) r.cost = it->second;
  r.job = std::move(j);
  return r;
}

class JobsPane : public Pane {
 public:
  std::string label() const override { return "Jobs"; }
  std::string name() const override { return "jobs"; }
  std::string row_kind() const override { return "job"; }
  const std::vector<BulkSpec>& bulk_specs(bool local) const override {
    return job_bulk_specs(local);
  }
  std::optional<std::string> selected_job(const TuiState& st) const override {
    return selected_key(st);
  }
  std::string title(const Frame& f) const override { return "Jobs · " + f.account; }
  std::vector<std::string> crumbs(const TuiState& st) const override {
    return {st.stack.back().account, "jobs"};
  }
  std::vector<Context> contexts() const override {
    return {Context::Jobs, Context::Table, Context::Global};
  }
  bool quits_back() const override { return false; }
  std::string focus_scope(const Frame&) const override { return kJobsScope; }
  // The counts on screen are as old as each shown job's task list.
  std::vector<std::string> shown_scopes(const TuiState& st) const override {
    std::vector<std::string> scopes;
    for (const auto& job : st.table.page.keys) scopes.push_back(tasks_scope(job));
    return scopes;
  }
  PollFocus poll_focus(const TuiState& st) const override {
    PollFocus p;
    p.jobs = true;
    p.jobs_on_screen = rows_on_screen(st);
    p.node_counts = true;  // the cost line's burn rate counts the nodes as they are now
    return p;
  }

  std::optional<Frame> drill(const Frame& f, const std::string& key) const override {
    Frame next = f;
    next.job = key;
    next.view = View::Tasks;
    return next;
  }
  // F: the selected job's failed tasks.
  bool act(AppContext& ctx, TuiState& st, Action a) override {
    if (a != Action::FailedTasks) return false;
    if (auto key = selected_key(st)) {
      Frame next = st.top();
      next.job = *key;
      next.view = View::Failed;
      push_frame(ctx, st, next);
    }
    return true;
  }
  std::string empty_text(const TuiState& st) const override {
    const auto& f = st.stack.back();
    if (f.account == kLocalAccount && f.cursor.filter.empty())
      return "no runs yet: press r to start one (the demo is filled in)";
    return Pane::empty_text(st);
  }

  // A Batch account's costs and waste above its jobs, once worked out.
  Rect table_rect(const TuiState& st, Rect body) const override {
    return body.drop_top(static_cast<int>(lines(st, body).size()));
  }
  void render(AppContext& ctx, TuiState& st, Canvas& c, Rect body) override {
    auto shown = lines(st, body);
    for (size_t i = 0; i < shown.size(); ++i)
      c.draw_text_truncated(body.x + 1, body.y + static_cast<int>(i), shown[i].text, shown[i].role,
                            body.w - 1);
    Pane::render(ctx, st, c, table_rect(st, body));
  }

  TablePage load(AppContext& ctx, TuiState& st, size_t first, int rows) override {
    const Frame& f = st.top();
    auto ages = load_sync_ages(ctx, f.account);
    TablePage p;
    p.columns = layouts_of(shown_columns(job_columns(), ages.batch));
    auto jobs = ctx.store->jobs(f.account);
    if (!jobs) return p;
    const std::set<std::string>* pins = nullptr;
    if (auto it = st.pinned.find(f.account); it != st.pinned.end()) pins = &it->second;
    // Every job's counts in one grouped read, not two queries per job.
    auto counts = ctx.store->job_task_counts(f.account);
    const auto* costs = shown_costs(st, f.account);
    std::vector<JobRow> items;
    for (auto& j : *jobs) {
      bool pinned = pins && pins->count(j.id);
      const JobTaskCounts* c = nullptr;
      if (counts)
        if (auto it = counts->find(j.id); it != counts->end()) c = &it->second;
      items.push_back(job_row(std::move(j), c, pinned, ages, costs));
    }
    fill_page(
        p, job_columns(), ages.batch, items, [](const JobRow& r) { return r.job.id; }, f.cursor,
        first, rows);
    return p;
  }

 private:
  // The cost lines that fit above a table of at least kLeastTableRows (a small terminal keeps
  // its jobs and loses the costs first).
  std::vector<CostLine> lines(const TuiState& st, Rect body) const {
    const auto* costs = shown_costs(st, st.stack.back().account);
    if (!costs) return {};
    auto out = cost_lines(*costs);
    out.resize(std::min(out.size(), static_cast<size_t>(std::max(0, body.h - kLeastTableRows))));
    return out;
  }

  static constexpr int kLeastTableRows = 6;  // the header and five jobs
};

}  // namespace

std::unique_ptr<Pane> make_jobs_pane() {
  return std::make_unique<JobsPane>();
}

}  // namespace trainyard
