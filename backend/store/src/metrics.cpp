// Metric points parsed from task logs, grouped in one series per (task, metric name).
#include <algorithm>
#include <unordered_map>

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
Result<int64_t> series_id(StatementCache& c, const TaskKey& k, const std::string& name) {
  auto ins = c.get(
      "INSERT INTO metric_series(account, job_id, task_id, name) VALUES (?1, ?2, ?3, ?4) "
      "ON CONFLICT(account, job_id, task_id, name) DO NOTHING",
      "add metric points");
  if (!ins) return ins.error();
  TY_TRY(ins->bind(1, k.account).bind(2, k.job).bind(3, k.task).bind(4, name).run());
  auto sel = c.get(
      "SELECT id FROM metric_series "
      "WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 AND name = ?4",
      "add metric points");
  if (!sel) return sel.error();
  auto row = sel->bind(1, k.account).bind(2, k.job).bind(3, k.task).bind(4, name).step();
  if (!row) return row.error();
  if (!*row) return make_error(ErrorKind::Db, "add metric points: series row missing");
  return sel->i64(0);
}

}  // namespace

Result<void> Store::add_metric_points(const std::string& account, const std::string& job,
                                      const std::string& task,
                                      const std::vector<MetricPoint>& points) {
  return atomic([&]() -> Result<void> {
    std::unordered_map<std::string, int64_t> ids;  // one lookup per name per batch
    for (const auto& p : points) {
      auto it = ids.find(p.name);
      if (it == ids.end()) {
        auto id = series_id(*cache_, TaskKey{account, job, task}, p.name);
        if (!id) return id.error();
        it = ids.emplace(p.name, *id).first;
      }
      auto s = cache_->get(
          "INSERT INTO metric_points(series_id, step, value, at) VALUES (?1, ?2, ?3, ?4)",
          "add metric points");
      if (!s) return s.error();
      TY_TRY(s->bind(1, it->second).bind(2, p.step).bind(3, p.value).bind(4, p.at).run());
    }
    return ok_result();
  });
}

Result<std::vector<MetricPoint>> Store::metric_points(const std::string& account,
                                                      const std::string& job,
                                                      const std::string& task,
                                                      const std::string& name) {
  auto s = cache_->get(
      "SELECT m.name, p.step, p.value, p.at FROM metric_points p "
      "JOIN metric_series m ON m.id = p.series_id "
      "WHERE m.account = ?1 AND m.job_id = ?2 AND m.task_id = ?3 AND m.name = ?4 "
      "ORDER BY p.step, p.rowid",
      "read metric points");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task).bind(4, name);
  return detail::collect<MetricPoint>(*s, [](const detail::Stmt& r) {
    return MetricPoint{r.text(0), r.f64(1), r.f64(2), r.time(3)};
  });
}

Result<std::vector<MetricPoint>> Store::metric_tail(const std::string& account,
                                                    const std::string& job, const std::string& task,
                                                    const std::string& name, int64_t count) {
  // Newest first through the (series, step) index, then put back in step order.
  auto s = cache_->get(
      "SELECT m.name, p.step, p.value, p.at FROM metric_points p "
      "JOIN metric_series m ON m.id = p.series_id "
      "WHERE m.account = ?1 AND m.job_id = ?2 AND m.task_id = ?3 AND m.name = ?4 "
      "ORDER BY p.step DESC, p.rowid DESC LIMIT ?5",
      "read last metric points");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task).bind(4, name).bind(5, count);
  auto out = detail::collect<MetricPoint>(*s, [](const detail::Stmt& r) {
    return MetricPoint{r.text(0), r.f64(1), r.f64(2), r.time(3)};
  });
  if (out) std::reverse(out->begin(), out->end());
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
      "ORDER BY id",
      "read metric names");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task);
  return detail::collect<std::string>(*s, [](const detail::Stmt& r) { return r.text(0); });
}

}  // namespace trainyard
