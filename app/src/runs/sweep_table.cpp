// The sweep table: parameters by name, the metric's summary per run and the best run.
#include "sweep_table.hpp"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "spec/run_params.hpp"
#include "sync/metric_parser.hpp"
#include "widgets/charts.hpp"

namespace trainyard {
const char* to_string(RankBy by) {
  return by == RankBy::Final ? "final" : "best";
}

std::string sweep_metric_title(const SweepMetric& m) {
  if (m.name.empty()) return "no metric yet";
  return fmt::format("best by {} {} {}", to_string(m.by), m.name,
                     m.lower_is_better ? "↓ min" : "↑ max");
}

std::string sweep_value_text(const std::optional<double>& v) {
  return v ? fmt::format("{:.4g}", *v) : "-";
}

std::string sweep_trend_text(const std::vector<double>& tail) {
  if (tail.empty()) return "";
  Canvas c(static_cast<int>(kSweepTrendPoints), 1);
  SparklineVm vm;
  vm.values = tail;
  render_sparkline(vm, c, c.bounds());
  return c.to_text();
}

std::string sweep_run_label(const Task& t) {
  return t.display_name.empty() ? t.id : t.id + " (" + t.display_name + ")";
}

std::string sweep_header(const SweepMetric& m, const std::vector<SweepRow>& rows,
                         const std::optional<std::string>& best) {
  std::string text = sweep_metric_title(m);
  auto it = std::find_if(rows.begin(), rows.end(),
                         [&](const SweepRow& r) { return best && r.task.id == *best; });
  if (it == rows.end()) return text;
  return text + " · " + sweep_run_label(it->task) + " " + sweep_value_text(ranked_value(m, *it));
}

std::vector<NameValue> run_parameters(Store& store, const Task& t) {
  auto stored = store.task_parameters(t.account, t.job_id, t.id);
  auto params = stored && !stored->empty()
                    ? spec::name_positional_parameters(std::move(*stored), t.command_line)
                    : spec::command_line_parameters(t.command_line);
  // What the run printed adds to what it was given, never overrides it.
  auto printed = store.output_parameters(t.account, t.job_id, t.id);
  if (printed) {
    for (auto& p : *printed) {
      auto same = [&](const NameValue& q) { return q.name == p.name; };
      if (std::none_of(params.begin(), params.end(), same)) params.push_back(std::move(p));
    }
  }
  // A name the run reports as a metric (`loss=…` in a script's text) is its metric, not a
  // parameter.
  auto table = store.table_metrics(t.account, t.job_id, t.id);
  if (table && !table->names.empty())
    std::erase_if(params, [&](const NameValue& p) {
      return std::find(table->names.begin(), table->names.end(), p.name) != table->names.end();
    });
  return params;
}

void place_parameters(std::vector<std::string>& names, SweepRow& row,
                      const std::vector<NameValue>& params) {
  for (const auto& p : params) {
    auto it = std::find(names.begin(), names.end(), p.name);
    auto i = static_cast<size_t>(it - names.begin());
    if (it == names.end()) names.push_back(p.name);
    if (row.params.size() <= i) row.params.resize(i + 1);
    row.params[i] = p.value;
  }
}

bool better_value(const SweepMetric& m, double a, double b) {
  return m.lower_is_better ? a < b : a > b;
}

std::optional<double> ranked_value(const SweepMetric& m, const SweepRow& row) {
  const auto& v = m.by == RankBy::Final ? row.final_value : row.best_value;
  if (!v || std::isnan(*v)) return std::nullopt;
  return v;
}

namespace {

// Succeeded, then not finished, then failed.
int outcome_rank(TaskOutcome o) {
  switch (o) {
    case TaskOutcome::Success:
      return 0;
    case TaskOutcome::Unfinished:
      return 1;
    case TaskOutcome::Failure:
      return 2;
  }
  return 2;
}

}  // namespace

bool ranks_before(const SweepMetric& m, const SweepRow& a, const SweepRow& b) {
  int oa = outcome_rank(task_outcome(a.task)), ob = outcome_rank(task_outcome(b.task));
  if (oa != ob) return oa < ob;
  auto va = ranked_value(m, a), vb = ranked_value(m, b);
  if (va.has_value() != vb.has_value()) return va.has_value();
  if (va && better_value(m, *va, *vb)) return true;
  if (va && better_value(m, *vb, *va)) return false;
  return a.task.id < b.task.id;
}

void rank_rows(const SweepMetric& m, std::vector<SweepRow>& rows) {
  std::sort(rows.begin(), rows.end(),
            [&](const SweepRow& a, const SweepRow& b) { return ranks_before(m, a, b); });
}

bool may_be_best(const SweepMetric& m, const SweepRow& row) {
  return ranked_value(m, row) && task_outcome(row.task) != TaskOutcome::Failure;
}

std::optional<std::string> best_run(const SweepMetric& m, const std::vector<SweepRow>& rows) {
  const SweepRow* best = nullptr;
  for (const auto& r : rows)
    if (may_be_best(m, r) && (!best || ranks_before(m, r, *best))) best = &r;
  if (!best) return std::nullopt;
  return best->task.id;
}

SweepMetric initial_sweep_metric(const Settings& settings, const std::string& job,
                                 const std::vector<std::string>& names) {
  auto configured = settings.main_metric.find(job);
  std::string name =
      configured != settings.main_metric.end() ? configured->second : main_metric(names);
  return {name, metric_lower_is_better(name), RankBy::Final};
}

Result<SweepTable> load_sweep_table(Store& store, const Settings& settings,
                                    const std::string& account, const std::string& job,
                                    const std::optional<SweepMetric>& metric) {
  TaskQuery q;
  q.account = account;
  q.job = job;
  auto tasks = store.tasks(q);
  if (!tasks) return tasks.error();
  SweepTable table;
  if (metric) {
    table.metric = *metric;
  } else {
    auto names = job_metric_names(store, *tasks);
    if (!names) return names.error();
    table.metric = initial_sweep_metric(settings, job, *names);
  }
  for (auto& t : *tasks) {
    SweepRow row;
    row.task = std::move(t);
    place_parameters(table.param_names, row, run_parameters(store, row.task));
    summarize_run(store, table.metric, row);
    table.rows.push_back(std::move(row));
  }
  for (auto& r : table.rows) r.params.resize(table.param_names.size());
  table.best = best_run(table.metric, table.rows);
  return table;
}

}  // namespace trainyard
