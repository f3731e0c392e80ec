// Reading and deleting single tasks, with their lists and state history (task_batch.cpp
// writes them).
#include "statement.hpp"
#include "store/store.hpp"
#include "task_rows.hpp"

namespace trainyard {

using detail::Stmt;

Result<void> Store::load_task_lists(Task& t) {
  auto env = cache_->get(
      "SELECT name, value FROM task_env WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 "
      "ORDER BY ord",
      "read task environment");
  if (!env) return env.error();
  env->bind(1, t.account).bind(2, t.job_id).bind(3, t.id);
  auto nv = detail::collect<NameValue>(*env, [](const Stmt& r) {
    return NameValue{r.text(0), r.text(1)};
  });
  if (!nv) return nv.error();
  t.environment_settings = std::move(*nv);
  auto deps = cache_->get(
      "SELECT depends_on FROM task_deps WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 "
      "ORDER BY ord",
      "read task dependencies");
  if (!deps) return deps.error();
  deps->bind(1, t.account).bind(2, t.job_id).bind(3, t.id);
  auto ids = detail::collect<std::string>(*deps, [](const Stmt& r) { return r.text(0); });
  if (!ids) return ids.error();
  t.depends_on.task_ids = std::move(*ids);
  return ok_result();
}

Result<std::optional<Task>> Store::task(const std::string& account, const std::string& job,
                                        const std::string& id) {
  std::optional<Task> out;
  TY_TRY(read([&]() -> Result<void> {
    auto s = cache_->get("SELECT " + detail::task_columns() +
                             " FROM tasks WHERE account = ?1 AND job_id = ?2 AND id = ?3",
                         "read task");
    if (!s) return s.error();
    auto row = s->bind(1, account).bind(2, job).bind(3, id).step();
    if (!row) return row.error();
    if (!*row) return ok_result();
    out = detail::read_task(*s);
    return load_task_lists(*out);
  }));
  return out;
}

Result<void> Store::delete_task_rows(const std::string& account, const std::string& job,
                                     const std::string* task) {
  // Metric points hang off their series, so they go first.
  static const char* const kTables[] = {
      ("DELETE FROM metric_points WHERE series_id IN (SELECT id FROM metric_series WHERE "
       "account = ?1 AND job_id = ?2{})"),
      "DELETE FROM metric_series WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM task_env WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM task_deps WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM task_params WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM output_params WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM subtasks WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM task_files WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM log_offsets WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM log_marks WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM state_history WHERE account = ?1 AND job_id = ?2{}",
      "DELETE FROM tasks WHERE account = ?1 AND job_id = ?2{}"};
  for (std::string sql : kTables) {
    bool is_tasks = sql.starts_with("DELETE FROM tasks");
    sql.replace(sql.find("{}"), 2, task ? (is_tasks ? " AND id = ?3" : " AND task_id = ?3") : "");
    auto s = cache_->get(sql, task ? "delete task" : "delete job tasks");
    if (!s) return s.error();
    s->bind(1, account).bind(2, job);
    if (task) s->bind(3, *task);
    TY_TRY(s->run());
  }
  return ok_result();
}

Result<std::map<std::string, TaskVersion>> Store::task_versions(const std::string& account,
                                                                const std::string& job) {
  auto s =
      cache_->get("SELECT id, etag, last_modified FROM tasks WHERE account = ?1 AND job_id = ?2",
                  "read task versions");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job);
  std::map<std::string, TaskVersion> out;
  for (;;) {
    auto row = s->step();
    if (!row) return row.error();
    if (!*row) return out;
    out.emplace(s->text(0), TaskVersion{s->text(1), s->opt_time(2)});
  }
}

Result<void> Store::delete_task(const std::string& account, const std::string& job,
                                const std::string& id) {
  return atomic([&] { return delete_task_rows(account, job, &id); });
}

Result<std::vector<StateChange>> Store::state_history(const std::string& account,
                                                      const std::string& job,
                                                      const std::string& id) {
  auto s = cache_->get(
      "SELECT from_state, to_state, at, retry_count, requeue_count FROM state_history "
      "WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 ORDER BY id",
      "read task state history");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, id);
  return detail::collect<StateChange>(*s, [](const Stmt& r) {
    return StateChange{r.wire(0, TaskState::Active), r.wire(1, TaskState::Active), r.time(2),
                       r.i32(3), r.i32(4)};
  });
}

}  // namespace trainyard
