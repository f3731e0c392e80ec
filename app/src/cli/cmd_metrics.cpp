// `trainyard metrics JOB/TASK [--account A] [--json|--csv]`: a task's metric series as stored,
// so the numbers can leave trainyard.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "metric_backfill.hpp"
#include "output.hpp"
#include "text_table.hpp"

namespace trainyard {
namespace {

struct MetricsOptions {
  std::string account = kLocalAccount, ref;
  bool json = false, csv = false, offline = false;
};

struct TaskMetrics {
  std::string table_stream;
  std::vector<MetricSeries> series;
  std::vector<std::vector<MetricPoint>> points;  ///< one list per series
  std::vector<NameValue> parameters;
};

// One attempt's points of a series: the store reads a name and stream across attempts.
std::vector<MetricPoint> points_of(Store& store, const MetricsOptions& o,
                                   const std::pair<std::string, std::string>& ref,
                                   const MetricSeries& s) {
  auto all = store.metric_points(o.account, ref.first, ref.second, s.name, s.stream);
  std::vector<MetricPoint> out;
  if (all)
    std::copy_if(all->begin(), all->end(), std::back_inserter(out),
                 [&](const MetricPoint& p) { return p.attempt == s.attempt; });
  return out;
}

Result<TaskMetrics> load(Store& store, const MetricsOptions& o,
                         const std::pair<std::string, std::string>& ref) {
  TaskMetrics m;
  auto series = store.metric_series(o.account, ref.first, ref.second);
  if (!series) return series.error();
  m.series = std::move(*series);
  m.table_stream = table_stream(m.series);
  for (const auto& s : m.series) m.points.push_back(points_of(store, o, ref, s));
  auto params = store.output_parameters(o.account, ref.first, ref.second);
  if (!params) return params.error();
  m.parameters = std::move(*params);
  return m;
}

nlohmann::json to_json(const TaskMetrics& m, const MetricsOptions& o,
                       const std::pair<std::string, std::string>& ref) {
  auto series = nlohmann::json::array();
  for (size_t i = 0; i < m.series.size(); ++i) {
    auto pts = nlohmann::json::array();
    for (const auto& p : m.points[i]) {
      // JSON has no NaN: a nan the log printed is null.
      nlohmann::json value = std::isnan(p.value) ? nlohmann::json() : nlohmann::json(p.value);
      pts.push_back({{"step", p.step}, {"value", value}});
    }
    const auto& s = m.series[i];
    series.push_back(
        {{"name", s.name}, {"stream", s.stream}, {"attempt", s.attempt}, {"points", pts}});
  }
  auto params = nlohmann::json::array();
  for (const auto& p : m.parameters) params.push_back({{"name", p.name}, {"value", p.value}});
  return {{"account", o.account},          {"job", ref.first},     {"task", ref.second},
          {"tableStream", m.table_stream}, {"parameters", params}, {"series", series}};
}

// A CSV field, quoted when it holds a separator, a quote or a line end (RFC 4180).
void print_csv(const TaskMetrics& m) {
  out::print("name,stream,attempt,step,value");
  for (size_t i = 0; i < m.series.size(); ++i) {
    const auto& s = m.series[i];
    for (const auto& p : m.points[i])
      out::print("{},{},{},{},{}", out::csv_field(s.name), s.stream, s.attempt, p.step, p.value);
  }
}

std::string number(double v) {
  return fmt::format("{:.6g}", v);
}

// MIN and MAX of a series's numbers: a NaN the log printed is counted apart (NAN), never a
// bound; `-` when every point is NaN.
struct Bounds {
  std::string min = "-", max = "-";
  size_t nans = 0;
};

Bounds bounds_of(const std::vector<MetricPoint>& pts) {
  Bounds b;
  std::optional<double> lo, hi;
  for (const auto& p : pts) {
    if (std::isnan(p.value)) {
      ++b.nans;
      continue;
    }
    lo = lo ? std::min(*lo, p.value) : p.value;
    hi = hi ? std::max(*hi, p.value) : p.value;
  }
  if (lo) b.min = number(*lo), b.max = number(*hi);
  return b;
}

void print_table(const TaskMetrics& m) {
  TextTable table({"NAME", "STREAM", "ATTEMPT", "POINTS", "FIRST", "LAST", "MIN", "MAX", "NAN"});
  for (size_t i = 0; i < m.series.size(); ++i) {
    const auto& s = m.series[i];
    const auto& pts = m.points[i];
    if (pts.empty()) continue;
    auto b = bounds_of(pts);
    auto stream = s.stream == m.table_stream ? s.stream + "*" : s.stream;
    table.add({s.name, stream, std::to_string(s.attempt), std::to_string(pts.size()),
               number(pts.front().value), number(pts.back().value), b.min, b.max,
               std::to_string(b.nans)});
  }
  table.print(stdout);
  if (!m.series.empty()) out::print("* the stream the tables show");
  for (const auto& p : m.parameters) out::print("parameter {} = {}", p.name, p.value);
}

int metrics_command(const CliState& st, const MetricsOptions& o) {
  if (o.json && o.csv) return report(make_error(ErrorKind::Usage, "pick one of --json and --csv"));
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  auto ref = split_task_ref(o.ref);
  if (!ref) return report(ref.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  if (auto b = backfill_metrics(**ctx, {o.account, ref->first, ref->second, o.offline}); !b)
    return report(b.error());
  auto t = (*ctx)->store->task(o.account, ref->first, ref->second);
  if (!t) return report(t.error());
  if (!t->has_value())
    return report(
        make_error(ErrorKind::NotFound, fmt::format("no task {} in account {}", o.ref, o.account)));
  auto m = load(*(*ctx)->store, o, *ref);
  if (!m) return report(m.error());
  if (o.json)
    out::json(to_json(*m, o, *ref));
  else if (o.csv)
    print_csv(*m);
  else
    print_table(*m);
  return kExitOk;
}

}  // namespace

void register_metrics(CLI::App& app, CliState& st) {
  auto o = std::make_shared<MetricsOptions>();
  auto* cmd = app.add_subcommand(
      "metrics", "Print a task's metric series (name, stream, attempt; points as step and value)");
  cmd->add_option("task", o->ref, "JOB/TASK")->required();
  cmd->add_option(
      "--account", o->account,
      "Account (default 'local'; Batch: the task is refreshed and its unread logs read)");
  cmd->add_flag("--offline", o->offline, "Batch: answer from the cache, reading nothing");
  cmd->add_flag("--json", o->json, "Every point, as JSON");
  cmd->add_flag("--csv", o->csv, "Every point, as CSV: name,stream,attempt,step,value");
  cmd->callback([&st, o] { st.action = [&st, o] { return metrics_command(st, *o); }; });
}

}  // namespace trainyard
