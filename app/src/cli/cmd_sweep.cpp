// `trainyard sweep JOB`: the job's runs ranked as the TUI's sweep pane ranks them, as a table,
// JSON or CSV.
#include <algorithm>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "local/engine.hpp"
#include "metric_backfill.hpp"
#include "output.hpp"
#include "sweep_table.hpp"
#include "sync/metric_parser.hpp"
#include "text_table.hpp"

namespace trainyard {
namespace {

struct SweepOptions {
  std::string job, account = kLocalAccount, metric, direction, by;
  bool json = false, csv = false, offline = false;
};

std::string join(const std::vector<std::string>& items, const std::string& sep) {
  std::string out;
  for (const auto& s : items) out += (out.empty() ? "" : sep) + s;
  return out;
}

// The metric the flags ask for; an unknown name is an error listing the job's metrics.
Result<std::optional<SweepMetric>> chosen_metric(Store& store, const SweepOptions& o,
                                                 const SweepTable& initial) {
  if (o.metric.empty() && o.direction.empty() && o.by.empty()) return std::optional<SweepMetric>();
  std::vector<Task> tasks;
  for (const auto& r : initial.rows) tasks.push_back(r.task);
  auto names = job_metric_names(store, tasks);
  if (!names) return names.error();
  std::string name = o.metric.empty() ? initial.metric.name : o.metric;
  if (std::find(names->begin(), names->end(), name) == names->end())
    return make_error(ErrorKind::Usage, fmt::format("sweep {}: no metric '{}' (the job has {})",
                                                    o.job, name, join(*names, ", ")));
  bool lower = o.direction.empty() ? metric_lower_is_better(name) : o.direction == "min";
  RankBy by = o.by == "best" ? RankBy::Best : RankBy::Final;
  return std::optional<SweepMetric>(SweepMetric{name, lower, by});
}

nlohmann::json optional_number(const std::optional<double>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json();
}

// Batch's executionInfo names: `result` is `success` or `failure` once the run has finished.
nlohmann::json result_json(const Task& t) {
  switch (task_outcome(t)) {
    case TaskOutcome::Success:
      return "success";
    case TaskOutcome::Failure:
      return "failure";
    case TaskOutcome::Unfinished:
      break;
  }
  return nullptr;
}

nlohmann::json exit_code_json(const Task& t) {
  const auto& code = t.execution_info.exit_code;
  return code ? nlohmann::json(*code) : nlohmann::json();
}

nlohmann::json run_json(const SweepTable& t, const SweepRow& r) {
  nlohmann::json params = nlohmann::json::object();
  for (size_t i = 0; i < t.param_names.size(); ++i)
    if (!r.params[i].empty()) params[t.param_names[i]] = r.params[i];
  return {{"task", r.task.id},
          {"name", r.task.display_name},
          {"state", to_wire(r.task.state)},
          {"exitCode", exit_code_json(r.task)},
          {"result", result_json(r.task)},
          {"parameters", params},
          {"final", optional_number(r.final_value)},
          {"best", optional_number(r.best_value)},
          {"trend", r.tail}};
}

void print_json(const SweepTable& t, const SweepOptions& o) {
  nlohmann::json runs = nlohmann::json::array();
  for (const auto& r : t.rows) runs.push_back(run_json(t, r));
  out::json({{"account", o.account},
             {"job", o.job},
             {"metric", t.metric.name},
             {"direction", t.metric.lower_is_better ? "min" : "max"},
             {"by", to_string(t.metric.by)},
             {"rule", sweep_metric_title(t.metric)},
             {"best", t.best ? nlohmann::json(*t.best) : nlohmann::json()},
             {"parameters", t.param_names},
             {"runs", runs}});
}

std::string csv_number(const std::optional<double>& v) {
  return v ? fmt::format("{}", *v) : "";
}

void print_csv(const SweepTable& t) {
  std::vector<std::string> header{"task", "name", "state", "exitCode", "result"};
  header.insert(header.end(), t.param_names.begin(), t.param_names.end());
  header.insert(header.end(), {"final", "best", "trend"});
  std::vector<std::string> fields;
  for (const auto& h : header) fields.push_back(out::csv_field(h));
  out::print("{}", join(fields, ","));
  for (const auto& r : t.rows) {
    auto result = result_json(r.task);
    fields = {
        out::csv_field(r.task.id), out::csv_field(r.task.display_name),
        std::string(to_wire(r.task.state)),
        r.task.execution_info.exit_code ? std::to_string(*r.task.execution_info.exit_code) : "",
        result.is_string() ? result.get<std::string>() : ""};
    for (const auto& v : r.params) fields.push_back(out::csv_field(v));
    std::vector<std::string> trend;
    for (double v : r.tail) trend.push_back(fmt::format("{}", v));
    fields.insert(fields.end(),
                  {csv_number(r.final_value), csv_number(r.best_value), join(trend, " ")});
    out::print("{}", join(fields, ","));
  }
}

void print_text(const SweepTable& t) {
  out::print("{}", sweep_header(t.metric, t.rows, t.best));
  std::vector<std::string> header{"TASK", "STATE", "EXIT"};
  header.insert(header.end(), t.param_names.begin(), t.param_names.end());
  header.insert(header.end(), {"FINAL", "BEST", "TREND"});
  TextTable table(header);
  for (const auto& r : t.rows) {
    const auto& code = r.task.execution_info.exit_code;
    std::vector<std::string> row{sweep_run_label(r.task), std::string(task_state_text(r.task)),
                                 code ? std::to_string(*code) : "-"};
    for (const auto& v : r.params) row.push_back(v.empty() ? "-" : v);
    row.insert(row.end(), {sweep_value_text(r.final_value), sweep_value_text(r.best_value),
                           sweep_trend_text(r.tail)});
    table.add(row);
  }
  table.print(stdout);
}

Result<SweepTable> load(AppContext& ctx, const SweepOptions& o) {
  auto job = ctx.store->job(o.account, o.job);
  if (!job) return job.error();
  if (!*job)
    return make_error(ErrorKind::NotFound,
                      fmt::format("sweep: no job '{}' on account {}", o.job, o.account));
  auto table = load_sweep_table(*ctx.store, ctx.settings, o.account, o.job, std::nullopt);
  if (!table) return table.error();
  auto metric = chosen_metric(*ctx.store, o, *table);
  if (!metric) return metric.error();
  if (*metric) table = load_sweep_table(*ctx.store, ctx.settings, o.account, o.job, *metric);
  return table;
}

int sweep_command(const CliState& st, const SweepOptions& o) {
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  if (o.account == kLocalAccount) {
    // As `ls`: a run whose supervisor died is re-attached or marked failed first.
    LocalEngine engine(*(*ctx)->store, (*ctx)->engine, (*ctx)->clock);
    if (auto s = engine.schedule(); !s) return report(s.error());
  }
  if (auto b = backfill_metrics(**ctx, {o.account, o.job, "", o.offline}); !b)
    return report(b.error());
  auto table = load(**ctx, o);
  if (!table) return report(table.error());
  rank_rows(table->metric, table->rows);
  if (o.json)
    print_json(*table, o);
  else if (o.csv)
    print_csv(*table);
  else
    print_text(*table);
  return kExitOk;
}

}  // namespace

void register_sweep(CLI::App& app, CliState& st) {
  auto o = std::make_shared<SweepOptions>();
  auto* cmd = app.add_subcommand(
      "sweep", "A job's runs ranked by a metric: parameters, final and best value, trend");
  cmd->add_option("job", o->job, "Job id")->required();
  cmd->add_option("--account", o->account,
                  "Account (default 'local'; Batch: the job is refreshed and unread logs read)");
  cmd->add_flag("--offline", o->offline, "Batch: answer from the cache, reading nothing");
  cmd->add_option("--metric", o->metric, "Rank by this metric (default: the job's main metric)");
  cmd->add_option("--direction", o->direction, "min or max is best (default: by the name)")
      ->check(CLI::IsMember({"min", "max"}));
  cmd->add_option("--by", o->by, "Rank by each run's final value (default) or its best")
      ->check(CLI::IsMember({"final", "best"}));
  auto* json = cmd->add_flag("--json", o->json, "One JSON object: the metric and every run");
  cmd->add_flag("--csv", o->csv, "CSV: a header line, then one line per run")->excludes(json);
  cmd->callback([&st, o] { st.action = [&st, o] { return sweep_command(st, *o); }; });
}

}  // namespace trainyard
