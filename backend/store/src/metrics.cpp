// Metric points parsed from task logs, one series per (task, stream, attempt, metric name).
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <tuple>

#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {
namespace {

using detail::StatementCache;

struct TaskKey {
  const std::string& account;
  const std::string& job;
  const std::string& task;
};

// The series id of a metric, created on first use (its id then records first appearance).
Result<int64_t> series_id(StatementCache& c, const TaskKey& k, const MetricPoint& p) {
  auto ins = c.get(
      "INSERT INTO metric_series(account, job_id, task_id, stream, attempt, name) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
      "ON CONFLICT(account, job_id, task_id, stream, attempt, name) DO NOTHING",
      "add metric points");
  if (!ins) return ins.error();
  TY_TRY(ins->bind(1, k.account)
             .bind(2, k.job)
             .bind(3, k.task)
             .bind(4, p.stream)
             .bind(5, p.attempt)
             .bind(6, p.name)
             .run());
  auto sel = c.get(
      "SELECT id FROM metric_series WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 "
      "AND stream = ?4 AND attempt = ?5 AND name = ?6",
      "add metric points");
  if (!sel) return sel.error();
  auto row = sel->bind(1, k.account)
                 .bind(2, k.job)
                 .bind(3, k.task)
                 .bind(4, p.stream)
                 .bind(5, p.attempt)
                 .bind(6, p.name)
                 .step();
  if (!row) return row.error();
  if (!*row) return make_error(ErrorKind::Db, "add metric points: series row missing");
  return sel->i64(0);
}

// NaN is stored as NULL (SQLite's own mapping), so it must be bound and read as such.
Result<void> insert_point(StatementCache& c, int64_t series, const MetricPoint& p) {
  auto s = c.get("INSERT INTO metric_points(series_id, step, value, at) VALUES (?1, ?2, ?3, ?4)",
                 "add metric points");
  if (!s) return s.error();
  s->bind(1, series).bind(2, p.step).bind(4, p.at);
  if (std::isnan(p.value))
    s->bind(3, std::nullopt);
  else
    s->bind(3, p.value);
  return s->run();
}

struct SeriesGrowth {
  int64_t added = 0;
  bool epochs = false;
};

Result<int64_t> note_growth(StatementCache& c, int64_t series, const SeriesGrowth& g) {
  auto upd = c.get(
      "UPDATE metric_series SET points = points + ?2, has_epochs = max(has_epochs, ?3) "
      "WHERE id = ?1",
      "add metric points");
  if (!upd) return upd.error();
  TY_TRY(upd->bind(1, series).bind(2, g.added).bind(3, g.epochs).run());
  auto sel = c.get("SELECT points FROM metric_series WHERE id = ?1", "add metric points");
  if (!sel) return sel.error();
  auto row = sel->bind(1, series).step();
  if (!row) return row.error();
  return *row ? sel->i64(0) : 0;
}

// Keeps, of each bucket of `bucket` consecutive points, the lowest, the highest and the last,
// so the curve keeps its extremes and the series its last value.
Result<void> downsample(StatementCache& c, int64_t series, int64_t points, int64_t cap) {
  int64_t bucket = std::max<int64_t>(2, (points * 6 + cap - 1) / std::max<int64_t>(cap, 6));
  auto del = c.get(
      "DELETE FROM metric_points WHERE rowid IN (SELECT rowid FROM ("
      " SELECT rowid,"
      "  row_number() OVER (PARTITION BY b ORDER BY value IS NULL, value, rowid) AS lo,"
      "  row_number() OVER (PARTITION BY b ORDER BY value IS NULL, value DESC, rowid) AS hi,"
      "  row_number() OVER (PARTITION BY b ORDER BY rowid DESC) AS last"
      " FROM (SELECT rowid, value, (row_number() OVER (ORDER BY rowid) - 1) / ?2 AS b"
      "       FROM metric_points WHERE series_id = ?1))"
      " WHERE lo > 1 AND hi > 1 AND last > 1)",
      "downsample metric points");
  if (!del) return del.error();
  TY_TRY(del->bind(1, series).bind(2, bucket).run());
  auto upd = c.get(
      "UPDATE metric_series SET points = "
      "(SELECT count(*) FROM metric_points WHERE series_id = ?1) WHERE id = ?1",
      "downsample metric points");
  if (!upd) return upd.error();
  return upd->bind(1, series).run();
}

MetricPoint read_point(const detail::Stmt& r) {
  MetricPoint p;
  p.name = r.text(0);
  p.step = r.f64(1);
  p.value = r.is_null(2) ? std::numeric_limits<double>::quiet_NaN() : r.f64(2);
  p.at = r.time(3);
  p.stream = r.text(4);
  p.attempt = r.i32(5);
  p.epoch = r.flag(6);
  return p;
}

constexpr const char* kPointColumns =
    "SELECT m.name, p.step, p.value, p.at, m.stream, m.attempt, m.has_epochs "
    "FROM metric_points p JOIN metric_series m ON m.id = p.series_id ";

}  // namespace

std::string table_stream(const std::vector<MetricSeries>& series) {
  for (const auto& s : series)
    if (s.has_epochs) return s.stream;
  for (const char* stream : {"stdout", "stderr"})
    for (const auto& s : series)
      if (s.stream == stream) return s.stream;
  return series.empty() ? std::string() : series.front().stream;
}

Result<void> Store::add_metric_points(const std::string& account, const std::string& job,
                                      const std::string& task,
                                      const std::vector<MetricPoint>& points) {
  return atomic([&]() -> Result<void> {
    using Key = std::tuple<std::string, int, std::string>;
    std::map<Key, int64_t> ids;  // one lookup per series per batch
    std::map<int64_t, SeriesGrowth> growth;
    for (const auto& p : points) {
      auto key = Key{p.stream, p.attempt, p.name};
      auto it = ids.find(key);
      if (it == ids.end()) {
        auto id = series_id(*cache_, TaskKey{account, job, task}, p);
        if (!id) return id.error();
        it = ids.emplace(key, *id).first;
      }
      TY_TRY(insert_point(*cache_, it->second, p));
      auto& g = growth[it->second];
      ++g.added;
      g.epochs = g.epochs || p.epoch;
    }
    for (const auto& [id, g] : growth) {
      auto held = note_growth(*cache_, id, g);
      if (!held) return held.error();
      if (*held > metric_point_cap_) TY_TRY(downsample(*cache_, id, *held, metric_point_cap_));
    }
    return ok_result();
  });
}

Result<std::vector<MetricPoint>> Store::metric_points(const std::string& account,
                                                      const std::string& job,
                                                      const std::string& task,
                                                      const std::string& name,
                                                      const std::string& stream) {
  auto s =
      cache_->get(std::string(kPointColumns) +
                      "WHERE m.account = ?1 AND m.job_id = ?2 AND m.task_id = ?3 AND m.name = ?4 "
                      "AND m.stream = ?5 ORDER BY m.attempt, p.rowid",
                  "read metric points");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task).bind(4, name).bind(5, stream);
  return detail::collect<MetricPoint>(*s, read_point);
}

Result<std::vector<MetricPoint>> Store::metric_tail(const std::string& account,
                                                    const std::string& job, const std::string& task,
                                                    const std::string& name,
                                                    const std::string& stream, int attempt,
                                                    int64_t count) {
  // Newest first through the series index, then put back in printed order.
  auto s =
      cache_->get(std::string(kPointColumns) +
                      "WHERE m.account = ?1 AND m.job_id = ?2 AND m.task_id = ?3 AND m.name = ?4 "
                      "AND m.stream = ?5 AND m.attempt = ?6 ORDER BY p.rowid DESC LIMIT ?7",
                  "read last metric points");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task).bind(4, name).bind(5, stream).bind(6, attempt);
  s->bind(7, count);
  auto out = detail::collect<MetricPoint>(*s, read_point);
  if (out) std::reverse(out->begin(), out->end());
  return out;
}

Result<std::vector<MetricSeries>> Store::metric_series(const std::string& account,
                                                       const std::string& job,
                                                       const std::string& task) {
  auto s = cache_->get(
      "SELECT name, stream, attempt, has_epochs, points FROM metric_series "
      "WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 ORDER BY id",
      "read metric series");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task);
  return detail::collect<MetricSeries>(*s, [](const detail::Stmt& r) {
    return MetricSeries{r.text(0), r.text(1), r.i32(2), r.flag(3), r.i64(4)};
  });
}

Result<TableMetrics> Store::table_metrics(const std::string& account, const std::string& job,
                                          const std::string& task) {
  auto series = metric_series(account, job, task);
  if (!series) return series.error();
  TableMetrics out;
  out.stream = table_stream(*series);
  for (const auto& s : *series) {
    if (s.stream != out.stream) continue;
    out.attempt = std::max(out.attempt, s.attempt);
    if (std::find(out.names.begin(), out.names.end(), s.name) == out.names.end())
      out.names.push_back(s.name);
  }
  return out;
}

Result<int64_t> Store::data_version() {
  auto s = cache_->get("PRAGMA data_version", "read data version");
  if (!s) return s.error();
  auto row = s->step();
  if (!row) return row.error();
  return *row ? s->i64(0) : 0;
}

Result<std::vector<std::string>> Store::metric_names(const std::string& account,
                                                     const std::string& job,
                                                     const std::string& task) {
  auto s = cache_->get(
      "SELECT name FROM metric_series WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 "
      "GROUP BY name ORDER BY min(id)",
      "read metric names");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task);
  return detail::collect<std::string>(*s, [](const detail::Stmt& r) { return r.text(0); });
}

}  // namespace trainyard
