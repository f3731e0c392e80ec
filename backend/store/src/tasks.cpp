// Writing, reading and deleting single tasks, with their lists and state history.
#include <chrono>

#include "snapshot_order.hpp"
#include "statement.hpp"
#include "store/store.hpp"
#include "task_rows.hpp"

namespace trainyard {
namespace {

using detail::StatementCache;
using detail::Stmt;

// The stored state of a task: outer nullopt when there is no row.
Result<std::optional<std::optional<TaskState>>> stored_state(StatementCache& c, const Task& t) {
  auto s = c.get("SELECT state FROM tasks WHERE account = ?1 AND job_id = ?2 AND id = ?3",
                 "upsert task");
  if (!s) return s.error();
  auto row = s->bind(1, t.account).bind(2, t.job_id).bind(3, t.id).step();
  if (!row) return row.error();
  if (!*row) return std::optional<std::optional<TaskState>>();
  return std::optional<std::optional<TaskState>>(s->opt_wire<TaskState>(0));
}

// The row keeps its pk on conflict, so the FTS index is only touched when the searched text
// changes (see the update trigger). False when the stored row is newer and stays.
Result<bool> write_row(StatementCache& c, const Task& t) {
  auto s = c.get(detail::task_upsert_sql(), "upsert task");
  if (!s) return s.error();
  detail::bind_task(*s, t);
  TY_TRY(s->run());
  return detail::wrote_row(c);
}

Result<void> append_history(StatementCache& c, const Task& t, TaskState from, bool inserted) {
  auto s = c.get(
      "INSERT INTO state_history(account, job_id, task_id, from_state, to_state, at) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
      "record task state");
  if (!s) return s.error();
  auto at = t.state_transition_time;
  if (!at && inserted) at = t.creation_time;
  if (!at) at = std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
  s->bind(1, t.account).bind(2, t.job_id).bind(3, t.id).bind(4, from).bind(5, t.state);
  return s->bind(6, *at).run();
}

Result<void> replace_lists(StatementCache& c, const Task& t, bool existed) {
  const char* env_sql =
      "INSERT INTO task_env(account, job_id, task_id, ord, name, value) "
      "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
  const char* dep_sql =
      "INSERT INTO task_deps(account, job_id, task_id, ord, depends_on) "
      "VALUES (?1, ?2, ?3, ?4, ?5)";
  // A new task has no list rows yet: skip the deletes (they dominate bulk inserts).
  for (const char* del :
       {"DELETE FROM task_env WHERE account = ?1 AND job_id = ?2 AND task_id = ?3",
        "DELETE FROM task_deps WHERE account = ?1 AND job_id = ?2 AND task_id = ?3"}) {
    if (!existed) break;
    auto s = c.get(del, "upsert task lists");
    if (!s) return s.error();
    TY_TRY(s->bind(1, t.account).bind(2, t.job_id).bind(3, t.id).run());
  }
  for (size_t i = 0; i < t.environment_settings.size(); ++i) {
    auto s = c.get(env_sql, "upsert task environment");
    if (!s) return s.error();
    s->bind(1, t.account).bind(2, t.job_id).bind(3, t.id).bind(4, static_cast<int64_t>(i));
    const auto& nv = t.environment_settings[i];
    TY_TRY(s->bind(5, nv.name).bind(6, nv.value).run());
  }
  for (size_t i = 0; i < t.depends_on.task_ids.size(); ++i) {
    auto s = c.get(dep_sql, "upsert task dependencies");
    if (!s) return s.error();
    s->bind(1, t.account).bind(2, t.job_id).bind(3, t.id).bind(4, static_cast<int64_t>(i));
    TY_TRY(s->bind(5, t.depends_on.task_ids[i]).run());
  }
  return ok_result();
}

}  // namespace

Result<void> Store::upsert_task(const Task& t) {
  return atomic([&]() -> Result<void> {
    auto old = stored_state(*cache_, t);
    if (!old) return old.error();
    auto wrote = write_row(*cache_, t);
    if (!wrote) return wrote.error();
    if (!*wrote) return ok_result();  // an older snapshot: history and lists stay too
    bool existed = old->has_value();
    if (!existed) {
      TY_TRY(append_history(*cache_, t, t.previous_state.value_or(t.state), true));
    } else if (**old != t.state) {
      TY_TRY(append_history(*cache_, t, (**old).value_or(t.state), false));
    }
    return replace_lists(*cache_, t, existed);
  });
}

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
      "SELECT from_state, to_state, at FROM state_history "
      "WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 ORDER BY id",
      "read task state history");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, id);
  return detail::collect<StateChange>(*s, [](const Stmt& r) {
    return StateChange{r.wire(0, TaskState::Active), r.wire(1, TaskState::Active), r.time(2)};
  });
}

}  // namespace trainyard
