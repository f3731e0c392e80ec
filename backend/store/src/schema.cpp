#include "schema.hpp"

#include <fmt/format.h>

#include <string_view>
#include <vector>

#include "statement.hpp"

namespace trainyard::detail {
namespace {

// Version 1: the whole model. Child rows are keyed by (account, job_id, task_id) text rather
// than foreign keys: sync may write files, offsets or metrics before their task, and the
// store deletes dependents itself (delete_job/delete_task), so foreign_keys stays off.
constexpr const char* kSchemaV1 = R"sql(
CREATE TABLE accounts(
  name TEXT PRIMARY KEY, kind TEXT NOT NULL, endpoint TEXT NOT NULL DEFAULT '');
CREATE TABLE pools(
  account TEXT NOT NULL, id TEXT NOT NULL, display_name TEXT NOT NULL DEFAULT '',
  vm_size TEXT NOT NULL DEFAULT '', state TEXT NOT NULL, allocation_state TEXT NOT NULL,
  current_dedicated_nodes INTEGER NOT NULL DEFAULT 0,
  target_dedicated_nodes INTEGER NOT NULL DEFAULT 0,
  current_low_priority_nodes INTEGER NOT NULL DEFAULT 0,
  target_low_priority_nodes INTEGER NOT NULL DEFAULT 0,
  task_slots_per_node INTEGER NOT NULL DEFAULT 1,
  creation_time INTEGER, state_transition_time INTEGER,
  PRIMARY KEY(account, id)) WITHOUT ROWID;
CREATE TABLE nodes(
  account TEXT NOT NULL, pool_id TEXT NOT NULL, id TEXT NOT NULL, state TEXT NOT NULL,
  scheduling_state TEXT NOT NULL, vm_size TEXT NOT NULL DEFAULT '',
  ip_address TEXT NOT NULL DEFAULT '', running_tasks_count INTEGER NOT NULL DEFAULT 0,
  running_task_slots_count INTEGER NOT NULL DEFAULT 0,
  total_tasks_run INTEGER NOT NULL DEFAULT 0, task_slots INTEGER NOT NULL DEFAULT 1,
  state_transition_time INTEGER,
  PRIMARY KEY(account, pool_id, id)) WITHOUT ROWID;
CREATE TABLE jobs(
  account TEXT NOT NULL, id TEXT NOT NULL, display_name TEXT NOT NULL DEFAULT '',
  pool_id TEXT NOT NULL DEFAULT '', state TEXT NOT NULL, priority INTEGER NOT NULL DEFAULT 0,
  creation_time INTEGER, state_transition_time INTEGER,
  PRIMARY KEY(account, id)) WITHOUT ROWID;
CREATE INDEX jobs_by_creation ON jobs(account, creation_time DESC, id);
CREATE TABLE job_metadata(
  account TEXT NOT NULL, job_id TEXT NOT NULL, ord INTEGER NOT NULL, name TEXT NOT NULL,
  value TEXT NOT NULL, PRIMARY KEY(account, job_id, ord)) WITHOUT ROWID;
CREATE TABLE tasks(
  pk INTEGER PRIMARY KEY,
  account TEXT NOT NULL, job_id TEXT NOT NULL, id TEXT NOT NULL,
  display_name TEXT NOT NULL DEFAULT '', command_line TEXT NOT NULL DEFAULT '',
  state TEXT NOT NULL,
  state_rank INTEGER GENERATED ALWAYS AS (CASE state WHEN 'active' THEN 0
    WHEN 'preparing' THEN 1 WHEN 'running' THEN 2 WHEN 'completed' THEN 3 ELSE 4 END) VIRTUAL,
  creation_time INTEGER, state_transition_time INTEGER, previous_state TEXT,
  max_wall_clock_us INTEGER, max_task_retry_count INTEGER NOT NULL DEFAULT 0,
  required_slots INTEGER NOT NULL DEFAULT 1,
  start_time INTEGER, end_time INTEGER, exit_code INTEGER, result TEXT,
  failure_category TEXT, failure_code TEXT, failure_message TEXT,
  retry_count INTEGER NOT NULL DEFAULT 0, last_retry_time INTEGER,
  requeue_count INTEGER NOT NULL DEFAULT 0,
  node_pool_id TEXT, node_id TEXT, node_root_dir TEXT,
  UNIQUE(account, job_id, id));
-- A job's tasks in display order, and its counts by state (state_rank prefix).
CREATE INDEX tasks_by_job_order ON tasks(account, job_id, state_rank, creation_time, id);
-- The same across an account (job_id empty in a TaskQuery).
CREATE INDEX tasks_by_account_order ON tasks(account, state_rank, creation_time, id, job_id);
CREATE TABLE task_env(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, ord INTEGER NOT NULL,
  name TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY(account, job_id, task_id, ord)) WITHOUT ROWID;
CREATE TABLE task_deps(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, ord INTEGER NOT NULL,
  depends_on TEXT NOT NULL,
  PRIMARY KEY(account, job_id, task_id, ord)) WITHOUT ROWID;
CREATE TABLE task_files(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, name TEXT NOT NULL,
  size INTEGER NOT NULL DEFAULT 0, is_directory INTEGER NOT NULL DEFAULT 0,
  last_modified INTEGER,
  PRIMARY KEY(account, job_id, task_id, name)) WITHOUT ROWID;
CREATE TABLE log_offsets(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, file TEXT NOT NULL,
  offset INTEGER NOT NULL,
  PRIMARY KEY(account, job_id, task_id, file)) WITHOUT ROWID;
-- One row per (task, metric name); its id orders names by first appearance.
CREATE TABLE metric_series(
  id INTEGER PRIMARY KEY, account TEXT NOT NULL, job_id TEXT NOT NULL,
  task_id TEXT NOT NULL, name TEXT NOT NULL,
  UNIQUE(account, job_id, task_id, name));
CREATE TABLE metric_points(
  series_id INTEGER NOT NULL, step REAL NOT NULL, value REAL NOT NULL, at INTEGER NOT NULL);
CREATE INDEX metric_points_by_step ON metric_points(series_id, step);
CREATE TABLE state_history(
  id INTEGER PRIMARY KEY, account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL,
  from_state TEXT NOT NULL, to_state TEXT NOT NULL, at INTEGER NOT NULL);
CREATE INDEX state_history_by_task ON state_history(account, job_id, task_id, id);
CREATE TABLE local_runs(
  job_id TEXT NOT NULL, task_id TEXT NOT NULL, run_dir TEXT NOT NULL, workdir TEXT NOT NULL,
  gpu_ids TEXT NOT NULL DEFAULT '', attempt INTEGER NOT NULL DEFAULT 0,
  supervisor_pid INTEGER NOT NULL DEFAULT 0, supervisor_start INTEGER NOT NULL DEFAULT 0,
  pid INTEGER NOT NULL DEFAULT 0, pgid INTEGER NOT NULL DEFAULT 0,
  start_ticks INTEGER NOT NULL DEFAULT 0, stop_requested INTEGER NOT NULL DEFAULT 0,
  grace_seconds INTEGER NOT NULL DEFAULT 10,
  PRIMARY KEY(job_id, task_id)) WITHOUT ROWID;
)sql";

// Forward migrations, applied in order; append new steps, never edit shipped ones.
// Version 2: the sweep parameters that produced a task (Shipyard task factories), in order.
constexpr const char* kSchemaV2 = R"sql(
CREATE TABLE task_params(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, ord INTEGER NOT NULL,
  name TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY(account, job_id, task_id, ord)) WITHOUT ROWID;
)sql";

// Version 3: when each part of a Batch account was last confirmed by its poller (row ages), the
// service-time watermark its incremental queries start from, and the last error there; a pool's
// resize errors and a node's start-task failure or errors (pool health).
constexpr const char* kSchemaV3 = R"sql(
CREATE TABLE sync_marks(
  account TEXT NOT NULL, scope TEXT NOT NULL, checked_at INTEGER,
  watermark INTEGER, error TEXT NOT NULL DEFAULT '',
  PRIMARY KEY(account, scope)) WITHOUT ROWID;
ALTER TABLE pools ADD COLUMN resize_error TEXT NOT NULL DEFAULT '';
ALTER TABLE nodes ADD COLUMN error TEXT NOT NULL DEFAULT '';
)sql";

// Version 4: multi-instance tasks (their settings, their subtasks) and the process groups of a
// local multi-instance run's instances, so a lost supervisor leaves no orphan behind.
constexpr const char* kSchemaV4 = R"sql(
ALTER TABLE tasks ADD COLUMN instances INTEGER;
ALTER TABLE tasks ADD COLUMN coordination_command TEXT;
CREATE TABLE subtasks(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, id INTEGER NOT NULL,
  state TEXT NOT NULL, state_transition_time INTEGER, start_time INTEGER, end_time INTEGER,
  exit_code INTEGER, result TEXT, failure_category TEXT, failure_code TEXT,
  failure_message TEXT, node_pool_id TEXT, node_id TEXT, node_root_dir TEXT,
  PRIMARY KEY(account, job_id, task_id, id)) WITHOUT ROWID;
ALTER TABLE local_runs ADD COLUMN instance_groups TEXT NOT NULL DEFAULT '';
)sql";

// Version 5: where an interrupted full listing of a scope goes on (the service's next-page link)
// and the service time it began, so a killed sync resumes instead of starting over.
constexpr const char* kSchemaV5 = R"sql(
ALTER TABLE sync_marks ADD COLUMN resume_link TEXT NOT NULL DEFAULT '';
ALTER TABLE sync_marks ADD COLUMN resume_from INTEGER;
)sql";

// Version 6: the service's lastModified and eTag of pools, jobs and tasks, so an upsert never
// replaces a row with an older snapshot of it and a pass can ask which tasks changed.
constexpr const char* kSchemaV6 = R"sql(
ALTER TABLE pools ADD COLUMN last_modified INTEGER;
ALTER TABLE pools ADD COLUMN etag TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN last_modified INTEGER;
ALTER TABLE jobs ADD COLUMN etag TEXT NOT NULL DEFAULT '';
ALTER TABLE tasks ADD COLUMN last_modified INTEGER;
ALTER TABLE tasks ADD COLUMN etag TEXT NOT NULL DEFAULT '';
)sql";

// Version 7: why a local run waits although it was scheduled or could be (NVML unreadable).
constexpr const char* kSchemaV7 = R"sql(
ALTER TABLE local_runs ADD COLUMN waiting_reason TEXT NOT NULL DEFAULT '';
)sql";

// Version 8: whether a node is dedicated or Spot; a task's resource and output files (compact
// JSON arrays, URLs without their query); and the tasks ever requeued, indexed apart so the TUI
// notices a preemption without reading every task.
constexpr const char* kSchemaV8 = R"sql(
ALTER TABLE nodes ADD COLUMN is_dedicated INTEGER NOT NULL DEFAULT 1;
ALTER TABLE tasks ADD COLUMN resource_files TEXT;
ALTER TABLE tasks ADD COLUMN output_files TEXT;
CREATE INDEX tasks_requeued ON tasks(account, job_id, id, requeue_count) WHERE requeue_count > 0;
)sql";

// Version 9: the GPUs a local run was pinned to (`--gpu-ids`), kept apart from the ones it was
// given (gpu_ids), so a retry asks for what the user asked for. Until a run starts, gpu_ids
// holds its pin; a run that started before this version is taken as unpinned.
constexpr const char* kSchemaV9 = R"sql(
ALTER TABLE local_runs ADD COLUMN pinned_gpu_ids TEXT NOT NULL DEFAULT '';
UPDATE local_runs SET pinned_gpu_ids = gpu_ids WHERE EXISTS (
  SELECT 1 FROM tasks WHERE tasks.account = 'local' AND tasks.job_id = local_runs.job_id
    AND tasks.id = local_runs.task_id AND tasks.state = 'active');
)sql";

// Version 10: a metric series per (task, stream, attempt, name), so stdout and stderr and a
// task's attempts never share a curve; whether a series' points had epochs (the tables' stream)
// and how many points it holds (downsampling past the cap). Points keep NaN (as NULL) and are
// read in the order the log printed them. Values a run printed once as configuration are its
// output parameters.
constexpr const char* kSchemaV10 = R"sql(
CREATE TABLE metric_series_v10(
  id INTEGER PRIMARY KEY, account TEXT NOT NULL, job_id TEXT NOT NULL,
  task_id TEXT NOT NULL, name TEXT NOT NULL, stream TEXT NOT NULL DEFAULT 'stdout',
  attempt INTEGER NOT NULL DEFAULT 0, has_epochs INTEGER NOT NULL DEFAULT 0,
  points INTEGER NOT NULL DEFAULT 0,
  UNIQUE(account, job_id, task_id, stream, attempt, name));
INSERT INTO metric_series_v10(id, account, job_id, task_id, name, points)
  SELECT s.id, s.account, s.job_id, s.task_id, s.name,
         (SELECT count(*) FROM metric_points p WHERE p.series_id = s.id)
  FROM metric_series s;
DROP TABLE metric_series;
ALTER TABLE metric_series_v10 RENAME TO metric_series;
CREATE TABLE metric_points_v10(
  series_id INTEGER NOT NULL, step REAL NOT NULL, value REAL, at INTEGER NOT NULL);
INSERT INTO metric_points_v10(series_id, step, value, at)
  SELECT series_id, step, value, at FROM metric_points ORDER BY series_id, step, rowid;
DROP TABLE metric_points;
ALTER TABLE metric_points_v10 RENAME TO metric_points;
CREATE INDEX metric_points_by_series ON metric_points(series_id);
CREATE TABLE output_params(
  id INTEGER PRIMARY KEY, account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL,
  name TEXT NOT NULL, value TEXT NOT NULL, UNIQUE(account, job_id, task_id, name));
)sql";

// Version 11: a pool's size and load over time (one sample per pool per 30-s bucket, written by
// the poller when it stores the pool or node list, kept a day) for the Pool pane's charts; and a
// task's retry and requeue counts at each recorded change, so a retry or a requeue (a preempted
// node) has its own row in the task's timeline.
constexpr const char* kSchemaV11 = R"sql(
CREATE TABLE pool_samples(
  account TEXT NOT NULL, pool_id TEXT NOT NULL, bucket INTEGER NOT NULL, at INTEGER NOT NULL,
  dedicated INTEGER NOT NULL, spot INTEGER NOT NULL, running_tasks INTEGER NOT NULL,
  PRIMARY KEY(account, pool_id, bucket)) WITHOUT ROWID;
ALTER TABLE state_history ADD COLUMN retry_count INTEGER NOT NULL DEFAULT 0;
ALTER TABLE state_history ADD COLUMN requeue_count INTEGER NOT NULL DEFAULT 0;
)sql";

// Version 12: when each stretch of a task's log had been read (by the supervisor as the run
// wrote it, or by the poller as it fetched a Batch task's copy), so the log pane can show a
// time beside each line.
constexpr const char* kSchemaV12 = R"sql(
CREATE TABLE log_marks(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, file TEXT NOT NULL,
  end_offset INTEGER NOT NULL, seen_at INTEGER NOT NULL,
  PRIMARY KEY(account, job_id, task_id, file, end_offset)) WITHOUT ROWID;
)sql";

// Version 13: VM prices from the Retail Prices API (per size, region and kind, hourly, before any
// discount) and when each (size, region) was last asked for, region '' meaning every region, so
// that `trainyard prices` knows whether the cache answers a query and from which date.
constexpr const char* kSchemaV13 = R"sql(
CREATE TABLE vm_prices(
  vm_size TEXT NOT NULL COLLATE NOCASE, region TEXT NOT NULL COLLATE NOCASE, kind TEXT NOT NULL,
  hourly REAL NOT NULL, currency TEXT NOT NULL, effective_from INTEGER NOT NULL,
  fetched_at INTEGER NOT NULL, PRIMARY KEY(vm_size, region, kind)) WITHOUT ROWID;
CREATE TABLE vm_price_fetches(
  vm_size TEXT NOT NULL COLLATE NOCASE, region TEXT NOT NULL COLLATE NOCASE,
  fetched_at INTEGER NOT NULL, PRIMARY KEY(vm_size, region)) WITHOUT ROWID;
)sql";

// Version 14: the FTS5 trigram index over tasks (created outside the steps, where SQLite had
// it) goes. The Tasks pane filters a job's tasks in memory, so the index only cost: a third of
// a sync's write time, and more pages than the tasks table itself.
constexpr const char* kSchemaV14 = R"sql(
DROP TRIGGER IF EXISTS tasks_fts_insert;
DROP TRIGGER IF EXISTS tasks_fts_delete;
DROP TRIGGER IF EXISTS tasks_fts_update;
DROP TABLE IF EXISTS task_fts;
DROP TABLE IF EXISTS task_fts_pending;
)sql";

// Version 15: the runs `rm` removed from a local job, with their commands and sweep parameters,
// so that submitting the job's spec again does not queue them again.
constexpr const char* kSchemaV15 = R"sql(
CREATE TABLE removed_runs(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, command_line TEXT NOT NULL,
  removed_at INTEGER NOT NULL, PRIMARY KEY(account, job_id, task_id)) WITHOUT ROWID;
CREATE TABLE removed_run_params(
  account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL, ord INTEGER NOT NULL,
  name TEXT NOT NULL, value TEXT NOT NULL,
  PRIMARY KEY(account, job_id, task_id, ord)) WITHOUT ROWID;
)sql";

// Version 16: a local job's onAllTasksComplete, which the local engine honours.
constexpr const char* kSchemaV16 = R"sql(
ALTER TABLE jobs ADD COLUMN on_all_tasks_complete TEXT NOT NULL DEFAULT '';
)sql";

// Version 17: a local job's onTaskFailure and why it ended, and the exitConditions of each local
// run, which decide the job's fate when the run fails.
constexpr const char* kSchemaV17 = R"sql(
ALTER TABLE jobs ADD COLUMN on_task_failure TEXT NOT NULL DEFAULT '';
ALTER TABLE jobs ADD COLUMN terminate_reason TEXT NOT NULL DEFAULT '';
ALTER TABLE local_runs ADD COLUMN exit_conditions TEXT NOT NULL DEFAULT '';
)sql";

// Version 18: the Batch log each window shows, so that whichever process polls the account
// follows it into the cache for the windows that do not poll.
constexpr const char* kSchemaV18 = R"sql(
CREATE TABLE watched_logs(
  pid INTEGER NOT NULL, account TEXT NOT NULL, job_id TEXT NOT NULL, task_id TEXT NOT NULL,
  pool_id TEXT NOT NULL, node_id TEXT NOT NULL, file TEXT NOT NULL, at INTEGER NOT NULL,
  PRIMARY KEY(pid, account)) WITHOUT ROWID;
)sql";

const std::vector<const char*>& migrations() {
  static const std::vector<const char*> steps = {
      kSchemaV1,  kSchemaV2,  kSchemaV3,  kSchemaV4,  kSchemaV5,  kSchemaV6,
      kSchemaV7,  kSchemaV8,  kSchemaV9,  kSchemaV10, kSchemaV11, kSchemaV12,
      kSchemaV13, kSchemaV14, kSchemaV15, kSchemaV16, kSchemaV17, kSchemaV18};
  return steps;
}

Result<int> user_version(sqlite3* db) {
  sqlite3_stmt* s = nullptr;
  if (sqlite3_prepare_v2(db, "PRAGMA user_version", -1, &s, nullptr) != SQLITE_OK) {
    return db_error(db, "read schema version");
  }
  Stmt stmt(s, "read schema version", nullptr);
  auto row = stmt.step();
  if (!row) return row.error();
  return *row ? stmt.i32(0) : 0;
}

Error too_new(const std::string& path, int found) {
  return make_error(ErrorKind::Db,
                    fmt::format("{}: schema version {} is newer than this trainyard knows ({}); "
                                "upgrade trainyard",
                                path, found, latest_schema_version()));
}

// Applies the steps after `from`; the caller holds the write lock.
Result<void> apply_steps(sqlite3* db, int from) {
  const auto& steps = migrations();
  for (int v = from + 1; v <= latest_schema_version(); ++v) {
    auto what = fmt::format("migrate schema to version {}", v);
    TY_TRY(exec(db, steps[static_cast<size_t>(v - 1)], what));
    TY_TRY(exec(db, fmt::format("PRAGMA user_version = {}", v).c_str(), what));
  }
  return ok_result();
}

}  // namespace

int latest_schema_version() {
  return static_cast<int>(migrations().size());
}

Result<void> check_is_ours(sqlite3* db, const std::string& path) {
  // Version 0 with tables: another program's database. Ours always sets the version in the
  // transaction that creates its tables. Both are read by one statement, so from one snapshot:
  // read apart, another connection's first migration could commit between them.
  sqlite3_stmt* s = nullptr;
  const char* sql =
      "SELECT (SELECT user_version FROM pragma_user_version), "
      "EXISTS (SELECT 1 FROM sqlite_master)";
  if (sqlite3_prepare_v2(db, sql, -1, &s, nullptr) != SQLITE_OK) {
    return db_error(db, "read schema");
  }
  Stmt both(s, "read schema", nullptr);
  auto row = both.step();
  if (!row) return row.error();
  if (!*row || both.i32(0) != 0 || both.i32(1) == 0) return ok_result();
  return make_error(ErrorKind::Db,
                    fmt::format("{}: not a trainyard database (it has tables but no schema "
                                "version); move it away or pick another --data-dir",
                                path));
}

Result<int> migrate(sqlite3* db, const std::string& path) {
  auto v = user_version(db);
  if (!v) return v.error();
  if (*v > latest_schema_version()) return too_new(path, *v);
  if (*v == latest_schema_version()) return *v;  // the common case takes no write lock
  TY_TRY(exec(db, "BEGIN IMMEDIATE", "migrate schema"));
  // Another process may have migrated while we waited for the lock: read again.
  v = user_version(db);
  Result<void> r =
      !v ? Result<void>(v.error())
         : (*v > latest_schema_version() ? Result<void>(too_new(path, *v)) : apply_steps(db, *v));
  if (!r) {
    sqlite3_exec(db, "ROLLBACK", nullptr, nullptr, nullptr);
    return r.error();
  }
  TY_TRY(exec(db, "COMMIT", "migrate schema"));
  return latest_schema_version();
}

}  // namespace trainyard::detail
