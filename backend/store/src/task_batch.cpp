// Writing tasks in batches: a listing's page takes a few dozen statements rather than several per
// task. Each statement carries up to 64 rows; a task whose eTag the cache already holds is not
// written at all, and one the cache lacks is inserted without the upsert's conflict handling.
#include <array>
#include <chrono>
#include <span>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

#include "statement.hpp"
#include "store/store.hpp"
#include "task_rows.hpp"

namespace trainyard {
namespace {

using detail::ParamsAt;
using detail::StatementCache;
using detail::Stmt;

// Rows per statement: 64, then 8, then 1, so three statement texts serve any count.
constexpr std::array<size_t, 3> kChunkRows = {64, 8, 1};
constexpr size_t kMostRows = kChunkRows[0];

// The statement text of `rows` rows made by `Make`, built once per process.
template <std::string (*Make)(size_t)>
const std::string& chunk_sql(size_t rows) {
  static const std::array<std::string, 3> sql = {Make(kChunkRows[0]), Make(kChunkRows[1]),
                                                 Make(kChunkRows[2])};
  return sql[rows == kChunkRows[0] ? 0 : (rows == kChunkRows[1] ? 1 : 2)];
}

// Calls run(first, rows) over [0, count) in chunks of kChunkRows.
template <typename Run>
Result<void> for_chunks(size_t count, Run run) {
  size_t i = 0;
  for (size_t rows : kChunkRows)
    for (; count - i >= rows; i += rows) TY_TRY(run(i, rows));
  return ok_result();
}

// Binds ids[first …] as ?(offset + 1) … ?(offset + kMostRows), repeating the last id past the end
// (an IN list does not mind), so one statement text serves every chunk.
void bind_ids(Stmt& s, const std::vector<std::string_view>& ids, size_t first, int offset) {
  for (size_t k = 0; k < kMostRows; ++k)
    s.bind_kept(offset + static_cast<int>(k) + 1, ids[std::min(first + k, ids.size() - 1)]);
}

std::string id_list_sql(const char* head) {
  return head + detail::numbered_rows(1, kMostRows, 3);
}

// What the cache held of a task before the batch: its eTag, and what its timeline depends on
// (its state and its retry and requeue counts).
struct Stored {
  std::optional<TaskState> state;
  std::string etag;
  int retries = 0, requeues = 0;
};
using StoredById = std::unordered_map<std::string, Stored>;

// The stored state and eTag of each task of `run` (one job's) that the cache holds.
Result<StoredById> stored_versions(StatementCache& c, std::span<const Task> run,
                                   const std::vector<std::string_view>& ids) {
  static const std::string sql = id_list_sql(
      "SELECT id, state, etag, retry_count, requeue_count FROM tasks WHERE account = ?1 AND job_id "
      "= ?2 AND id IN ");
  StoredById out;
  for (size_t i = 0; i < ids.size(); i += kMostRows) {
    auto s = c.get(sql, "upsert tasks: read stored versions");
    if (!s) return s.error();
    s->bind(1, run.front().account).bind(2, run.front().job_id);
    bind_ids(*s, ids, i, 2);
    TY_TRY(detail::each(*s, [&](const Stmt& r) {
      out.emplace(r.text(0), Stored{r.opt_wire<TaskState>(1), r.text(2), r.i32(3), r.i32(4)});
    }));
  }
  return out;
}

std::string upsert_rows_sql(size_t rows) {
  return detail::task_upsert_rows_sql(rows);
}

std::string insert_rows_sql(size_t rows) {
  return detail::task_insert_rows_sql(rows);
}

// Binds tasks[first …] as the rows of a multi-row task statement.
void bind_tasks(Stmt& s, const std::vector<const Task*>& tasks, size_t first, size_t rows) {
  const int columns = static_cast<int>(detail::kTaskColumnList.size());
  for (size_t k = 0; k < rows; ++k)
    detail::bind_task(s, *tasks[first + k], static_cast<int>(k) * columns);
}

// Upserts `tasks`; the ids of the rows written (an older snapshot leaves the stored row).
Result<std::unordered_set<std::string>> upsert_rows(StatementCache& c,
                                                    const std::vector<const Task*>& tasks) {
  std::unordered_set<std::string> written;
  auto ok = for_chunks(tasks.size(), [&](size_t first, size_t rows) -> Result<void> {
    auto s = c.get(chunk_sql<upsert_rows_sql>(rows), "upsert tasks");
    if (!s) return s.error();
    bind_tasks(*s, tasks, first, rows);
    return detail::each(*s, [&](const Stmt& r) { written.insert(r.text(0)); });
  });
  if (!ok) return ok.error();
  return written;
}

// Inserts `tasks`, none of which the cache holds (so each is written).
Result<void> insert_rows(StatementCache& c, const std::vector<const Task*>& tasks) {
  return for_chunks(tasks.size(), [&](size_t first, size_t rows) -> Result<void> {
    auto s = c.get(chunk_sql<insert_rows_sql>(rows), "insert tasks");
    if (!s) return s.error();
    bind_tasks(*s, tasks, first, rows);
    return s->run();
  });
}

// One state_history row to append.
struct HistoryRow {
  const Task* task;
  TaskState from;
  Timestamp at;
};

std::string history_rows_sql(size_t rows) {
  return "INSERT INTO state_history(account, job_id, task_id, from_state, to_state, at, "
         "retry_count, requeue_count) VALUES " +
         detail::numbered_rows(rows, 8);
}

Result<void> append_history(StatementCache& c, const std::vector<HistoryRow>& history) {
  return for_chunks(history.size(), [&](size_t first, size_t rows) -> Result<void> {
    auto s = c.get(chunk_sql<history_rows_sql>(rows), "record task states");
    if (!s) return s.error();
    for (size_t k = 0; k < rows; ++k) {
      const HistoryRow& h = history[first + k];
      ParamsAt p{*s, static_cast<int>(k) * 8};
      p.keep(1, h.task->account).keep(2, h.task->job_id).keep(3, h.task->id).bind(4, h.from);
      p.bind(5, h.task->state).bind(6, h.at).bind(7, h.task->execution_info.retry_count);
      p.bind(8, h.task->execution_info.requeue_count);
    }
    return s->run();
  });
}

// The history row a written task adds: every new task gets one, a stored one only when its state
// changed or it was retried or requeued within one (each has its own row in the task's timeline).
// A retry within the same state is dated by lastRetryTime: the state's transition time is still
// the previous attempt's start. A missing time is the creation time (new tasks), else now.
std::optional<HistoryRow> history_of(const Task& t, const Stored* stored) {
  auto at = t.state_transition_time;
  const auto& e = t.execution_info;
  if (stored && stored->state == t.state && stored->retries != e.retry_count && e.last_retry_time)
    at = e.last_retry_time;
  if (!at && !stored) at = t.creation_time;
  if (!at) at = std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
  if (!stored) return HistoryRow{&t, t.previous_state.value_or(t.state), *at};
  if (stored->state == t.state && stored->retries == t.execution_info.retry_count &&
      stored->requeues == t.execution_info.requeue_count)
    return std::nullopt;
  return HistoryRow{&t, stored->state.value_or(t.state), *at};
}

// Removes the environment and dependency rows of tasks `ids` (one job's).
Result<void> delete_lists(StatementCache& c, const Task& any,
                          const std::vector<std::string_view>& ids) {
  static const std::array<std::string, 2> sql = {
      id_list_sql("DELETE FROM task_env WHERE account = ?1 AND job_id = ?2 AND task_id IN "),
      id_list_sql("DELETE FROM task_deps WHERE account = ?1 AND job_id = ?2 AND task_id IN ")};
  for (size_t i = 0; i < ids.size(); i += kMostRows) {
    for (const auto& text : sql) {
      auto s = c.get(text, "upsert tasks: clear lists");
      if (!s) return s.error();
      s->bind(1, any.account).bind(2, any.job_id);
      bind_ids(*s, ids, i, 2);
      TY_TRY(s->run());
    }
  }
  return ok_result();
}

// One list item of a task: its environment setting or dependency number `ord`.
struct ListRow {
  const Task* task;
  size_t ord;
};

std::string env_rows_sql(size_t rows) {
  return "INSERT INTO task_env(account, job_id, task_id, ord, name, value) VALUES " +
         detail::numbered_rows(rows, 6);
}

std::string dep_rows_sql(size_t rows) {
  return "INSERT INTO task_deps(account, job_id, task_id, ord, depends_on) VALUES " +
         detail::numbered_rows(rows, 5);
}

Result<void> insert_env(StatementCache& c, const std::vector<ListRow>& env) {
  return for_chunks(env.size(), [&](size_t first, size_t rows) -> Result<void> {
    auto s = c.get(chunk_sql<env_rows_sql>(rows), "upsert task environment");
    if (!s) return s.error();
    for (size_t k = 0; k < rows; ++k) {
      const auto& [t, ord] = env[first + k];
      const NameValue& nv = t->environment_settings[ord];
      ParamsAt p{*s, static_cast<int>(k) * 6};
      p.keep(1, t->account).keep(2, t->job_id).keep(3, t->id).bind(4, static_cast<int64_t>(ord));
      p.keep(5, nv.name).keep(6, nv.value);
    }
    return s->run();
  });
}

Result<void> insert_deps(StatementCache& c, const std::vector<ListRow>& deps) {
  return for_chunks(deps.size(), [&](size_t first, size_t rows) -> Result<void> {
    auto s = c.get(chunk_sql<dep_rows_sql>(rows), "upsert task dependencies");
    if (!s) return s.error();
    for (size_t k = 0; k < rows; ++k) {
      const auto& [t, ord] = deps[first + k];
      ParamsAt p{*s, static_cast<int>(k) * 5};
      p.keep(1, t->account).keep(2, t->job_id).keep(3, t->id).bind(4, static_cast<int64_t>(ord));
      p.keep(5, t->depends_on.task_ids[ord]);
    }
    return s->run();
  });
}

// Replaces the lists of the written tasks (a new task has none to clear).
Result<void> replace_lists(StatementCache& c, const std::vector<const Task*>& written,
                           const std::vector<std::string_view>& existed) {
  if (!existed.empty()) TY_TRY(delete_lists(c, *written.front(), existed));
  std::vector<ListRow> env, deps;
  for (const Task* t : written) {
    for (size_t i = 0; i < t->environment_settings.size(); ++i) env.push_back({t, i});
    for (size_t i = 0; i < t->depends_on.task_ids.size(); ++i) deps.push_back({t, i});
  }
  TY_TRY(insert_env(c, env));
  return insert_deps(c, deps);
}

// A run's tasks the cache lacks, and those it holds at another eTag (or none).
struct RunParts {
  std::vector<const Task*> fresh, changed;
};

RunParts split_run(std::span<const Task> run, const StoredById& stored) {
  RunParts parts;
  for (const Task& t : run) {
    auto s = stored.find(t.id);
    if (s == stored.end())
      parts.fresh.push_back(&t);
    else if (t.etag.empty() || s->second.etag != t.etag)
      parts.changed.push_back(&t);
  }
  return parts;
}

// Writes one job's tasks (distinct ids): those the cache holds at the same eTag are skipped,
// new ones inserted, the rest upserted, then their history and lists follow the rows written.
Result<void> upsert_run(StatementCache& c, std::span<const Task> run) {
  std::vector<std::string_view> ids;
  for (const Task& t : run) ids.push_back(t.id);
  auto stored = stored_versions(c, run, ids);
  if (!stored) return stored.error();
  const RunParts parts = split_run(run, *stored);
  TY_TRY(insert_rows(c, parts.fresh));
  auto wrote = upsert_rows(c, parts.changed);
  if (!wrote) return wrote.error();
  std::vector<const Task*> written = parts.fresh;
  std::vector<std::string_view> existed;
  std::vector<HistoryRow> history;
  for (const Task* t : parts.fresh)
    if (auto h = history_of(*t, nullptr)) history.push_back(*h);
  for (const Task* t : parts.changed) {
    if (!wrote->count(t->id)) continue;  // an older snapshot: history and lists stay too
    written.push_back(t);
    existed.push_back(t->id);
    if (auto h = history_of(*t, &stored->find(t->id)->second)) history.push_back(*h);
  }
  TY_TRY(append_history(c, history));
  return written.empty() ? ok_result() : replace_lists(c, written, existed);
}

// The length of the run of tasks starting at `first` that share one job and repeat no id (a
// repeated id is written after the first, as two upserts would be).
size_t run_length(std::span<const Task> tasks, size_t first) {
  std::unordered_set<std::string_view> ids;
  size_t i = first;
  for (; i < tasks.size(); ++i) {
    const Task& t = tasks[i];
    if (t.account != tasks[first].account || t.job_id != tasks[first].job_id) break;
    if (!ids.insert(t.id).second) break;
  }
  return i - first;
}

}  // namespace

Result<void> Store::upsert_tasks(std::span<const Task> tasks) {
  return atomic([&]() -> Result<void> {
    for (size_t i = 0; i < tasks.size();) {
      const size_t n = run_length(tasks, i);
      TY_TRY(upsert_run(*cache_, tasks.subspan(i, n)));
      i += n;
    }
    return ok_result();
  });
}

Result<void> Store::upsert_task(const Task& t) {
  return upsert_tasks(std::span<const Task>(&t, 1));
}

}  // namespace trainyard
