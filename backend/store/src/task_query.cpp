// Task lists, counts and the substring filter.
#include <algorithm>

#include "statement.hpp"
#include "store/store.hpp"
#include "task_rows.hpp"

namespace trainyard {
namespace {

// Parameters: ?1 account, ?2 job, ?3 state rank, ?4 substring, ?5 limit, ?6 offset.

// `%…%` with LIKE's wildcards (and the escape character itself) escaped.
std::string like_pattern(const std::string& s) {
  std::string out = "%";
  for (char c : s) {
    if (c == '%' || c == '_' || c == '\\') out += '\\';
    out += c;
  }
  return out + "%";
}

// `param` found in the id, the display name or the command line (a LIKE pattern; LIKE folds
// ASCII case only, as the Tasks pane's index in memory does).
std::string text_match_sql(const std::string& param) {
  return "id LIKE " + param + " ESCAPE '\\' OR display_name LIKE " + param +
         " ESCAPE '\\' OR command_line LIKE " + param + " ESCAPE '\\'";
}

// Conditions bind ?7, ?8, … in order.
constexpr int kFirstConditionParam = 7;

const char* cmp_sql(TaskCondition::Cmp c) {
  using C = TaskCondition::Cmp;
  switch (c) {
    case C::Eq:
      return " = ";
    case C::Ne:
      return " != ";
    case C::Lt:
      return " < ";
    case C::Le:
      return " <= ";
    case C::Gt:
      return " > ";
    case C::Ge:
      return " >= ";
  }
  return " = ";
}

// A condition on parameter ?n; NULL (no exit code) counts as false, so `negate` includes it.
std::string condition_sql(const TaskCondition& c, int n) {
  using F = TaskCondition::Field;
  std::string p = "?" + std::to_string(n);
  std::string body;
  switch (c.field) {
    case F::StateRank:
      body = "state_rank" + std::string(cmp_sql(c.cmp)) + p;
      break;
    case F::Failed:
      body = "state_rank = 3 AND result = 'failure'";
      break;
    case F::ExitCode:
      // The EXIT column shows the failure code of a task that never exited: not 0 either.
      body = "exit_code" + std::string(cmp_sql(c.cmp)) + p;
      if (c.cmp == TaskCondition::Cmp::Ne)
        body += " OR (exit_code IS NULL AND coalesce(failure_code, '') != '')";
      break;
    case F::Text:
      body = text_match_sql(p);
      break;
  }
  return std::string(c.negate ? "NOT " : "") + "coalesce((" + body + "), 0)";
}

std::string where_clause(const TaskQuery& q) {
  std::string w = " WHERE account = ?1";
  if (!q.job.empty()) w += " AND job_id = ?2";
  if (q.state) w += " AND state_rank = ?3";
  if (!q.substring.empty()) w += " AND (" + text_match_sql("?4") + ")";
  for (size_t i = 0; i < q.conditions.size(); ++i)
    w += " AND " + condition_sql(q.conditions[i], kFirstConditionParam + static_cast<int>(i));
  return w;
}

// The column of an order; null: the display order.
const char* order_column(TaskOrder o) {
  switch (o) {
    case TaskOrder::Display:
      return nullptr;
    case TaskOrder::Id:
      return "id";
    case TaskOrder::State:
      return "state_rank";
    case TaskOrder::ExitCode:
      return "exit_code";
    case TaskOrder::Retries:
      return "retry_count";
    case TaskOrder::Requeues:
      return "requeue_count";
    case TaskOrder::Slots:
      return "required_slots";
    case TaskOrder::CommandLine:
      return "command_line";
  }
  return nullptr;
}

void bind_filter(detail::Stmt& s, const TaskQuery& q) {
  s.bind(1, q.account);
  if (!q.job.empty()) s.bind(2, q.job);
  if (q.state) s.bind(3, static_cast<int>(*q.state));  // enum order is the display order
  if (!q.substring.empty()) s.bind(4, like_pattern(q.substring));
  for (size_t i = 0; i < q.conditions.size(); ++i) {
    const auto& c = q.conditions[i];
    int n = kFirstConditionParam + static_cast<int>(i);
    if (c.field == TaskCondition::Field::Text) s.bind(n, like_pattern(c.text));
    if (c.field == TaskCondition::Field::StateRank || c.field == TaskCondition::Field::ExitCode)
      s.bind(n, c.number);
  }
}

// The ORDER BY of a list: the display order matches the indexes (within a job, job_id is fixed;
// across jobs it breaks ties last); another order breaks ties by id. `reverse` reads it from the
// end (a page from the bottom, a keyset page backwards).
std::string order_sql(const TaskQuery& q, bool reverse) {
  bool desc = (q.order != TaskOrder::Display && q.descending) != reverse;
  std::string dir = desc ? " DESC" : "";
  std::string tail = q.job.empty() ? ", job_id" + dir : "";
  const char* column = order_column(q.order);
  if (!column) return " ORDER BY state_rank" + dir + ", creation_time" + dir + ", id" + dir + tail;
  return std::string(" ORDER BY ") + column + dir + ", id" + dir + tail;
}

// True when the seek's key moves towards larger keys (forward in an ascending order).
bool seeks_greater(const TaskQuery& q) {
  bool desc = q.order != TaskOrder::Display && q.descending;
  return q.seek->backward == desc;
}

// The rows past the seek's task, by (column, id) or, in the display order, by (state,
// creation time, id): row values, which the ordering index answers as a range. A NULL sorts
// first: a task with no exit code, or with no creation time (never one from Batch or the local
// engine; the display order's key then compares the state and the id alone).
std::string seek_sql(const TaskQuery& q, int n) {
  auto p = [&](int i) { return "?" + std::to_string(n + i); };
  bool greater = seeks_greater(q);
  const auto& t = q.seek->task;
  if (const char* c = order_column(q.order)) {
    std::string col = c;
    bool null_key = q.order == TaskOrder::ExitCode && !t.execution_info.exit_code;
    if (null_key)
      return greater ? " AND (" + col + " IS NOT NULL OR id > " + p(2) + ")"
                     : " AND (" + col + " IS NULL AND id < " + p(2) + ")";
    return greater
               ? " AND (" + col + ", id) > (" + p(0) + ", " + p(2) + ")"
               : " AND ((" + col + ", id) < (" + p(0) + ", " + p(2) + ") OR " + col + " IS NULL)";
  }
  if (!t.creation_time)
    return greater ? " AND (state_rank > " + p(0) + " OR (state_rank = " + p(0) +
                         " AND (creation_time IS NOT NULL OR id > " + p(2) + ")))"
                   : " AND (state_rank < " + p(0) + " OR (state_rank = " + p(0) +
                         " AND creation_time IS NULL AND id < " + p(2) + "))";
  std::string op = greater ? " > " : " < ";
  return " AND (state_rank, creation_time, id)" + op + "(" + p(0) + ", " + p(1) + ", " + p(2) + ")";
}

// The seek task's key: ?n the column (or the state), ?n+1 the creation time, ?n+2 the id.
void bind_seek(detail::Stmt& s, const TaskQuery& q, int n) {
  const auto& t = q.seek->task;
  const auto& e = t.execution_info;
  switch (q.order) {
    case TaskOrder::Display:
    case TaskOrder::State:
      s.bind(n, static_cast<int>(t.state));
      break;
    case TaskOrder::Id:
      s.bind(n, t.id);
      break;
    case TaskOrder::ExitCode:
      if (e.exit_code) s.bind(n, int64_t{*e.exit_code});
      break;
    case TaskOrder::Retries:
      s.bind(n, int64_t{e.retry_count});
      break;
    case TaskOrder::Requeues:
      s.bind(n, int64_t{e.requeue_count});
      break;
    case TaskOrder::Slots:
      s.bind(n, int64_t{t.required_slots});
      break;
    case TaskOrder::CommandLine:
      s.bind(n, t.command_line);
      break;
  }
  if (q.order == TaskOrder::Display && t.creation_time) s.bind(n + 1, *t.creation_time);
  s.bind(n + 2, t.id);
}

}  // namespace

Result<std::vector<Task>> Store::tasks(const TaskQuery& q) {
  std::vector<Task> out;
  TY_TRY(read([&]() -> Result<void> {
    bool seek = q.seek && !q.job.empty();
    bool reverse = q.from_end || (seek && q.seek->backward);
    int seek_param = kFirstConditionParam + static_cast<int>(q.conditions.size());
    std::string sql = "SELECT " + detail::task_columns() + " FROM tasks" + where_clause(q) +
                      (seek ? seek_sql(q, seek_param) : "") + order_sql(q, reverse) +
                      " LIMIT ?5 OFFSET ?6";
    auto s = cache_->get(sql, "list tasks");
    if (!s) return s.error();
    bind_filter(*s, q);
    if (seek) bind_seek(*s, q, seek_param);
    s->bind(5, q.limit < 0 ? int64_t{-1} : q.limit);
    s->bind(6, seek || q.offset < 0 ? int64_t{0} : q.offset);
    auto rows = detail::collect<Task>(*s, detail::read_task);
    if (!rows) return rows.error();
    out = std::move(*rows);
    if (reverse) std::reverse(out.begin(), out.end());
    for (auto& t : out) TY_TRY(load_task_lists(t));
    return ok_result();
  }));
  return out;
}

Result<int64_t> Store::count_tasks(const TaskQuery& q) {
  auto s = cache_->get("SELECT count(*) FROM tasks" + where_clause(q), "count tasks");
  if (!s) return s.error();
  bind_filter(*s, q);
  auto row = s->step();
  if (!row) return row.error();
  return *row ? s->i64(0) : 0;
}

Result<std::map<TaskState, int64_t>> Store::task_counts(const std::string& account,
                                                        const std::string& job) {
  // Grouping by state_rank reads only the ordering index.
  std::string sql = "SELECT state_rank, count(*) FROM tasks WHERE account = ?1";
  sql += job.empty() ? " GROUP BY state_rank" : " AND job_id = ?2 GROUP BY state_rank";
  auto s = cache_->get(sql, "count tasks by state");
  if (!s) return s.error();
  s->bind(1, account);
  if (!job.empty()) s->bind(2, job);
  std::map<TaskState, int64_t> out;
  for (auto st :
       {TaskState::Active, TaskState::Preparing, TaskState::Running, TaskState::Completed}) {
    out[st] = 0;
  }
  for (;;) {
    auto row = s->step();
    if (!row) return row.error();
    if (!*row) return out;
    int rank = s->i32(0);
    if (rank >= 0 && rank <= 3) out[static_cast<TaskState>(rank)] += s->i64(1);
  }
}

}  // namespace trainyard

namespace trainyard {

Result<int64_t> Store::failed_task_count(const std::string& account, const std::string& job) {
  // The ordering index narrows to completed tasks; only their result is read.
  std::string sql =
      "SELECT count(*) FROM tasks WHERE account = ?1 AND state_rank = 3 AND result = 'failure'";
  if (!job.empty()) sql += " AND job_id = ?2";
  auto s = cache_->get(sql, "count failed tasks");
  if (!s) return s.error();
  s->bind(1, account);
  if (!job.empty()) s->bind(2, job);
  auto row = s->step();
  if (!row) return row.error();
  return *row ? s->i64(0) : 0;
}

Result<std::map<std::string, JobTaskCounts>> Store::job_task_counts(const std::string& account) {
  std::map<std::string, JobTaskCounts> out;
  auto by_job = [&](const std::string& job) -> JobTaskCounts& {
    auto [it, added] = out.try_emplace(job);
    if (added)
      for (auto st :
           {TaskState::Active, TaskState::Preparing, TaskState::Running, TaskState::Completed})
        it->second.by_state[st] = 0;
    return it->second;
  };
  TY_TRY(read([&]() -> Result<void> {
    // Both read only indexes: the job ordering index, then the account's completed tasks.
    auto s = cache_->get(
        "SELECT job_id, state_rank, count(*) FROM tasks WHERE account = ?1"
        " GROUP BY job_id, state_rank",
        "count every job's tasks by state");
    if (!s) return s.error();
    s->bind(1, account);
    TY_TRY(detail::each(*s, [&](const detail::Stmt& row) {
      int rank = row.i32(1);
      if (rank >= 0 && rank <= 3)
        by_job(row.text(0)).by_state[static_cast<TaskState>(rank)] += row.i64(2);
    }));
    auto f = cache_->get(
        "SELECT job_id, count(*) FROM tasks WHERE account = ?1 AND state_rank = 3"
        " AND result = 'failure' GROUP BY job_id",
        "count every job's failed tasks");
    if (!f) return f.error();
    f->bind(1, account);
    return detail::each(*f,
                        [&](const detail::Stmt& row) { by_job(row.text(0)).failed = row.i64(1); });
  }));
  return out;
}

Result<std::vector<std::string>> Store::task_ids(const std::string& account,
                                                 const std::string& job) {
  auto s = cache_->get("SELECT id FROM tasks WHERE account = ?1 AND job_id = ?2", "list task ids");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job);
  return detail::collect<std::string>(*s, [](const detail::Stmt& st) { return st.text(0); });
}

}  // namespace trainyard
