// The SQLite store: the UI's only source of truth, shared by every trainyard process.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "core/entities.hpp"
#include "core/result.hpp"

struct sqlite3;

namespace trainyard {

namespace detail {
class StatementCache;
}  // namespace detail

/// A started task whose logs are not all in the cache (Store::tasks_with_unread_logs).
struct UnreadTaskLogs {
  std::string task;
  bool completed = false;  ///< completed: read to the end; running: read what there is
};

/// A task that reached `completed`, by its state history row (Store::tasks_completed_since).
struct CompletedTaskRow {
  int64_t history_id = 0;
  std::string job, task;
};

/// How hard a write transaction must be made durable.
enum class Durability {
  Cache,  ///< synchronous=NORMAL: survives an app crash; data can be re-fetched
  Intent  ///< synchronous=FULL: the user's local runs; survives power loss
};

/// What a task list is ordered by: a fixed list, so no text from a user reaches the SQL.
enum class TaskOrder { Display, Id, State, ExitCode, Retries, Requeues, Slots, CommandLine };

/// One more condition on the tasks of a list or count; its operand is bound as a parameter.
struct TaskCondition {
  enum class Field {
    StateRank,  ///< the state's rank (TaskState's order) compared with `number`
    Failed,     ///< completed with a failure
    ExitCode,   ///< the exit code compared with `number`; Ne also holds for a failure code
    Text        ///< `text` in the id, displayName or commandLine (ASCII case ignored)
  };
  enum class Cmp { Eq, Ne, Lt, Le, Gt, Ge };
  Field field = Field::Text;
  Cmp cmp = Cmp::Eq;
  int64_t number = 0;
  std::string text;
  bool negate = false;  ///< the condition must not hold (a task with no value included)
};

/// Where a keyset page of a job's tasks starts: just past `task` in the list's order, or
/// (`backward`) the rows just before it. Its key is the order's column and the id (the display
/// order: state, creation time, id), so a page costs the same anywhere in a long list.
struct TaskSeek {
  Task task;
  bool backward = false;
};

/// Which tasks a list or count asks for.
struct TaskQuery {
  std::string account;
  std::string job;                 ///< empty: every job of the account
  std::optional<TaskState> state;  ///< only this state
  std::string substring;           ///< case-insensitive match on id, displayName or commandLine
  std::vector<TaskCondition> conditions;  ///< all must hold as well
  TaskOrder order = TaskOrder::Display;   ///< Display: state, creation time, id
  bool descending = false;                ///< `order` from the largest (not for Display)
  std::optional<TaskSeek> seek;           ///< a keyset page (with `job`; offset then ignored)
  bool from_end = false;                  ///< the last `limit` rows (offset counted from the end)
  int64_t limit = -1;                     ///< -1: no limit
  int64_t offset = 0;
};

/// What identifies one version of a cached task: the service's eTag and lastModified (empty and
/// nullopt for local tasks and rows cached before they were stored).
struct TaskVersion {
  std::string etag;
  std::optional<Timestamp> last_modified;
};

/// A task requeued at least once (a preemption, a node removed or rebooted), with how often.
struct TaskRequeues {
  std::string job;
  std::string task;
  int requeues = 0;
};

/// A run `rm` removed from a local job: what a later submission of the same spec leaves out.
struct RemovedRun {
  std::string id;
  std::string command_line;
  std::vector<NameValue> parameters;  ///< its sweep parameters, in order
};

/// What a window shows of a Batch account (a job's tasks, and a task's or node's log when one is
/// open): whichever process polls the account keeps it fresh in the cache, so a window that
/// does not poll shows it too.
struct WatchedLog {
  int64_t pid = 0;  ///< the window's process
  std::string account, job, task, pool, node;
  std::string file;  ///< `stdout.txt`, `startup/stderr.txt`…; empty: no log is open
  Timestamp at{};    ///< when the window last said so
};

/// One state change of a task, as recorded in the history table.
struct StateChange {
  TaskState from = TaskState::Active;
  TaskState to = TaskState::Active;
  Timestamp at;
  int retry_count = 0;    ///< the task's retries when the change was stored
  int requeue_count = 0;  ///< the task's requeues (preemptions) when the change was stored
};

/// A pool's size and load at one time (one per pool per kPoolSampleSeconds).
struct PoolSample {
  Timestamp at;
  int64_t dedicated = 0;      ///< current dedicated nodes
  int64_t spot = 0;           ///< current Spot (low-priority) nodes
  int64_t running_tasks = 0;  ///< tasks running on the pool's stored nodes
};

/// The bucket a pool sample stands for: a later record in the same bucket replaces it.
inline constexpr int64_t kPoolSampleSeconds = 30;
/// How long pool samples are kept.
inline constexpr int64_t kPoolSampleRetentionSeconds = 24 * 3600;

/// A file of a task (stdout.txt, stderr.txt, outputs).
struct TaskFile {
  std::string name;
  int64_t size = 0;
  bool is_directory = false;
  std::optional<Timestamp> last_modified;
};

/// How far a log file had been read at some instant.
struct LogMark {
  int64_t end_offset = 0;  ///< bytes before this offset had been read
  Timestamp seen_at;

  bool operator==(const LogMark&) const = default;
};

/// One parsed metric value from a task's log.
struct MetricPoint {
  std::string name;
  double step = 0;   ///< the log's step; else the count of metric lines up to this one
  double value = 0;  ///< NaN when the log printed nan
  Timestamp at;
  std::string stream = "stdout";  ///< the log it came from: `stdout` or `stderr`
  int attempt = 0;                ///< the task's attempt that printed it, 0 for the first
  bool epoch = false;             ///< the log had printed an epoch position by then
};

/// One curve of a task: a metric name in one stream and one attempt.
struct MetricSeries {
  std::string name;
  std::string stream;
  int attempt = 0;
  bool has_epochs = false;  ///< some point came after an epoch position
  int64_t points = 0;       ///< points held (fewer than printed once downsampled)
};

/// What the tables show of a task: the metrics of one stream, and its latest attempt.
struct TableMetrics {
  std::string stream;              ///< empty when the task has no metrics
  int attempt = 0;                 ///< the stream's latest attempt
  std::vector<std::string> names;  ///< the stream's metric names, by first appearance
};

/// The stream the tables' metric comes from: the one with epoch lines when there is one, else
/// stdout, else stderr; empty without series.
std::string table_stream(const std::vector<MetricSeries>& series);

/// Points kept per series before downsampling (each bucket keeps its min, max and last).
inline constexpr int64_t kMetricPointCap = 1'000'000;

/// What the local engine knows of a run's processes (intent data, never pruned silently).
struct LocalRun {
  std::string job;
  std::string task;
  std::string run_dir;  ///< runs/<job>/<task>
  std::string workdir;  ///< where the command runs
  std::string gpu_ids;  ///< comma-separated GPU indices assigned, empty for CPU slots
  /// The attempt running or last run: 0 for the first, one more for each retry after a failure
  /// and each reactivation. Metrics and kept logs (`stdout.attempt-N.txt`) are per attempt.
  int attempt = 0;
  int64_t supervisor_pid = 0;
  int64_t supervisor_start = 0;  ///< /proc/<pid>/stat field 22 of the supervisor
  int64_t pid = 0;               ///< the task's /bin/sh
  int64_t pgid = 0;
  int64_t start_ticks = 0;  ///< /proc/<pid>/stat field 22 of the task
  bool stop_requested = false;
  int grace_seconds = 10;
  /// Process groups of a multi-instance run's coordination commands, `pgid:start_ticks`
  /// comma-separated (see local/instance_groups.hpp); empty otherwise.
  std::string instance_groups;
  /// Why the task waits although slots are free or it was handed to its supervisor (NVML
  /// cannot be read, so its GPUs cannot be confined); empty when it does not.
  std::string waiting_reason;
  /// The GPUs the run was pinned to (`--gpu-ids`, comma-separated); empty when it takes any.
  std::string pinned_gpu_ids;
  /// The task's exitConditions as JSON (verbatim from its spec); empty when it has none.
  std::string exit_conditions;
};

/// What a task filter reads of one task: what TaskQuery's substring and conditions test, and
/// the keys of its orders.
struct TaskSummary {
  std::string id, display_name, command_line;
  int state_rank = 0;                ///< TaskState's order
  bool failed = false;               ///< completed with a failure
  std::optional<int64_t> exit_code;  ///< none while it has not exited
  bool failure_code = false;         ///< it has a failure code (shown when there is no exit code)
  int64_t retries = 0, requeues = 0, slots = 1;
};

/// A job's tasks counted by state (every state present), and how many of its completed ones
/// failed.
struct JobTaskCounts {
  std::map<TaskState, int64_t> by_state;
  int64_t failed = 0;
};

/// How current one part of a Batch account's cache is (row ages, incremental polling).
///
/// Scopes: `pools`, `jobs`, `nodes/<pool>`, `tasks/<job>`.
struct SyncMark {
  std::string scope;
  std::optional<Timestamp> checked_at;  ///< when a poll last confirmed it (this machine's clock)
  std::optional<Timestamp> watermark;   ///< the service's time an incremental query starts from
  std::string error;                    ///< why the last poll of it failed; empty when it did not
  /// An interrupted full listing: the next page's link (empty when none is pending) ...
  std::string resume_link;
  /// ... and the service time that listing began at (changes since then may be missing).
  std::optional<Timestamp> resume_from;
};

/// A connection to cache.db; one per process and thread that writes.
///
/// Every method returns errors as values (ErrorKind::Db for SQLite failures, ErrorKind::Busy when
/// another connection held the write lock past the busy timeout) and never throws.
/// Methods that write are atomic on their own; inside `write()` they join its transaction.
class Store {
 public:
  /// Opens (creating and migrating) the database at `path`; `:memory:` for tests.
  static Result<std::unique_ptr<Store>> open(const std::string& path);
  ~Store();
  Store(const Store&) = delete;
  Store& operator=(const Store&) = delete;

  /// Schema version (PRAGMA user_version) after migration.
  int schema_version() const;

  /// Runs `fn` inside BEGIN IMMEDIATE … COMMIT; rolls back when it fails. Not re-entrant.
  Result<void> write(const std::function<Result<void>()>& fn, Durability d = Durability::Cache);

  // Accounts
  /// Inserts or replaces an account.
  Result<void> upsert_account(const Account& a);
  /// All accounts, by name.
  Result<std::vector<Account>> accounts();

  // Pools and nodes
  // Upserts of Batch entities never go back in time: a row whose lastModified (nodes:
  // stateTransitionTime) is later than the incoming one's stays as it is.

  /// Inserts or replaces a pool, unless the stored one is newer.
  Result<void> upsert_pool(const Pool& p);
  /// Pools of an account, by id.
  Result<std::vector<Pool>> pools(const std::string& account);
  /// Inserts or replaces a node, unless the stored one changed state later (nodes have no
  /// lastModified on the wire).
  Result<void> upsert_node(const Node& n);
  /// Deletes a pool and its nodes.
  Result<void> delete_pool(const std::string& account, const std::string& id);
  /// Deletes one node.
  Result<void> delete_node(const std::string& account, const std::string& pool,
                           const std::string& id);
  /// Nodes of a pool, by id.
  Result<std::vector<Node>> nodes(const std::string& account, const std::string& pool);
  /// Every pool's nodes of an account counted by state, by pool id (only states that have
  /// nodes), in one grouped statement.
  Result<std::map<std::string, std::map<NodeState, int64_t>>> node_state_counts(
      const std::string& account);

  /// Records a sample of each of `account`'s pools (only `pool`, when given) as stored now:
  /// its current nodes and its stored nodes' running tasks, at `at`; drops the account's
  /// samples older than kPoolSampleRetentionSeconds.
  Result<void> record_pool_samples(const std::string& account, Timestamp at,
                                   const std::string& pool = "");
  /// A pool's samples, oldest first.
  Result<std::vector<PoolSample>> pool_samples(const std::string& account, const std::string& pool);

  // Jobs
  /// Inserts or replaces a job with its metadata, unless the stored one is newer.
  Result<void> upsert_job(const Job& j);
  /// One job, or nullopt.
  Result<std::optional<Job>> job(const std::string& account, const std::string& id);
  /// Jobs of an account, newest first.
  Result<std::vector<Job>> jobs(const std::string& account);
  /// Removes a job with its tasks, files, history, offsets and metrics.
  Result<void> delete_job(const std::string& account, const std::string& id);

  // Tasks
  /// Inserts or replaces a task with its lists, unless the stored one is newer; a state change
  /// appends to the history.
  Result<void> upsert_task(const Task& t);
  /// upsert_task() for each of `tasks` in order, in a few multi-row statements: a task the cache
  /// holds at the same (non-empty) eTag is not written again.
  Result<void> upsert_tasks(std::span<const Task> tasks);
  /// One task, or nullopt.
  Result<std::optional<Task>> task(const std::string& account, const std::string& job,
                                   const std::string& id);
  /// Tasks matching the query, sorted by state then creation time then id.
  Result<std::vector<Task>> tasks(const TaskQuery& q);
  /// How many tasks match the query (limit/offset ignored).
  Result<int64_t> count_tasks(const TaskQuery& q);
  /// Calls `each` with a summary of every task of a job, in the display order (one statement).
  Result<void> each_task_summary(const std::string& account, const std::string& job,
                                 const std::function<void(const TaskSummary&)>& each);
  /// The ids of a job's tasks (cheap: for deletion passes).
  Result<std::vector<std::string>> task_ids(const std::string& account, const std::string& job);
  /// The version (eTag, lastModified) of each of a job's cached tasks, by id: what a pass
  /// compares with the service's to find the tasks that changed.
  Result<std::map<std::string, TaskVersion>> task_versions(const std::string& account,
                                                           const std::string& job);
  /// Task counts by state for a job (or the account when job is empty); every state is present.
  Result<std::map<TaskState, int64_t>> task_counts(const std::string& account,
                                                   const std::string& job);
  /// Completed tasks whose result is failure, for a job (or the account when job is empty).
  Result<int64_t> failed_task_count(const std::string& account, const std::string& job);
  /// A job's failed tasks (completed with result failure), the latest to end first, from
  /// `offset`, at most `limit` (-1: all); without their lists.
  Result<std::vector<Task>> failed_tasks(const std::string& account, const std::string& job,
                                         int64_t offset = 0, int64_t limit = -1);
  /// Every job's task counts of an account by job id, in two grouped statements read in one
  /// snapshot (rather than two per job); a job with no task is absent.
  Result<std::map<std::string, JobTaskCounts>> job_task_counts(const std::string& account);
  /// Replaces the sweep parameters (name, value text) that produced a task.
  Result<void> set_task_parameters(const std::string& account, const std::string& job,
                                   const std::string& task, const std::vector<NameValue>& params);
  /// The sweep parameters of a task, in order; empty for a task not made by a sweep.
  Result<std::vector<NameValue>> task_parameters(const std::string& account, const std::string& job,
                                                 const std::string& task);
  /// Removes a task with its files, history, offsets and metrics.
  Result<void> delete_task(const std::string& account, const std::string& job,
                           const std::string& id);
  /// Every recorded state change of a task, oldest first. The first row, written on insert,
  /// goes from the task's previous_state (or its state when it has none) to its state.
  Result<std::vector<StateChange>> state_history(const std::string& account, const std::string& job,
                                                 const std::string& id);

  // Preemptions
  /// The sum of an account's tasks' requeue counts (cheap: a partial index holds only the
  /// tasks ever requeued).
  Result<int64_t> requeue_total(const std::string& account);
  /// An account's tasks requeued at least once, by job then id.
  Result<std::vector<TaskRequeues>> requeued_tasks(const std::string& account);
  /// An account's preempted nodes (account, pool_id, id and state set), by pool then id.
  Result<std::vector<Node>> preempted_nodes(const std::string& account);

  // Files and log offsets
  /// Replaces the file list of a task.
  Result<void> set_task_files(const std::string& account, const std::string& job,
                              const std::string& task, const std::vector<TaskFile>& files);
  /// Files of a task, by name.
  Result<std::vector<TaskFile>> task_files(const std::string& account, const std::string& job,
                                           const std::string& task);
  /// Records how far a file has been read (log tailing, metric extraction). Offset 0 starts the
  /// file over: its read marks (below) go with it.
  Result<void> set_log_offset(const std::string& account, const std::string& job,
                              const std::string& task, const std::string& file, int64_t offset);
  /// The recorded offset, 0 when none.
  Result<int64_t> log_offset(const std::string& account, const std::string& job,
                             const std::string& task, const std::string& file);
  /// Records that a file's bytes before `mark.end_offset` had been read at `mark.seen_at` (a
  /// log's line times come from these).
  Result<void> add_log_mark(const std::string& account, const std::string& job,
                            const std::string& task, const std::string& file, const LogMark& mark);
  /// Forgets a file's read marks (its content started over).
  Result<void> clear_log_marks(const std::string& account, const std::string& job,
                               const std::string& task, const std::string& file);
  /// A file's read marks ending past `after` (a byte offset), by offset, at most `limit`.
  Result<std::vector<LogMark>> log_marks(const std::string& account, const std::string& job,
                                         const std::string& task, const std::string& file,
                                         int64_t after, int limit);

  /// Records that a completed task's `file` (`stdout.txt`…) was read to its end; the mark holds
  /// the task's end time, so a task that runs again (reactivated, requeued) is unread again.
  /// Nothing is recorded for a task that has not completed.
  Result<void> mark_task_log_final(const std::string& account, const std::string& job,
                                   const std::string& task, const std::string& file);
  /// Whether mark_task_log_final() holds for the task as it is stored now.
  Result<bool> task_log_final(const std::string& account, const std::string& job,
                              const std::string& task, const std::string& file);
  /// The job's started tasks whose stdout.txt or stderr.txt is not read to its end: running
  /// ones, and completed ones without both final marks; completed first, oldest first, at most
  /// `limit`.
  Result<std::vector<UnreadTaskLogs>> tasks_with_unread_logs(const std::string& account,
                                                             const std::string& job, int64_t limit);
  /// The account's tasks that reached `completed` after state history row `after` (0: from the
  /// start), in the order they did, at most `limit`.
  Result<std::vector<CompletedTaskRow>> tasks_completed_since(const std::string& account,
                                                              int64_t after, int64_t limit);
  /// The newest state history row's id (0 when there is none).
  Result<int64_t> last_state_change_id();

  // Metrics
  /// Appends metric points of a task, each to the series of its name, stream and attempt; a
  /// series past the point cap is downsampled (see set_metric_point_cap).
  Result<void> add_metric_points(const std::string& account, const std::string& job,
                                 const std::string& task, const std::vector<MetricPoint>& points);
  /// Points of one metric of a task in one stream, every attempt, in attempt order and then in
  /// the order the log printed them.
  Result<std::vector<MetricPoint>> metric_points(const std::string& account, const std::string& job,
                                                 const std::string& task, const std::string& name,
                                                 const std::string& stream = "stdout");
  /// The last `count` points of one metric, stream and attempt, in printed order (sparklines).
  Result<std::vector<MetricPoint>> metric_tail(const std::string& account, const std::string& job,
                                               const std::string& task, const std::string& name,
                                               const std::string& stream, int attempt,
                                               int64_t count);
  /// Every series of a task, in order of first appearance.
  Result<std::vector<MetricSeries>> metric_series(const std::string& account,
                                                  const std::string& job, const std::string& task);
  /// The stream, attempt and names the tables show (see table_stream).
  Result<TableMetrics> table_metrics(const std::string& account, const std::string& job,
                                     const std::string& task);
  /// The attempt a task is on: a local run's stored attempt (local_runs.attempt), else the
  /// Batch task's retries plus requeues; 0 for a task the store does not know.
  Result<int> current_attempt(const std::string& account, const std::string& job,
                              const std::string& task);
  /// Downsampling threshold per series (kMetricPointCap unless changed, e.g. by a test).
  void set_metric_point_cap(int64_t cap) { metric_point_cap_ = cap; }
  /// Records a value the run printed as configuration (see metric_parser.hpp), replacing one of
  /// the same name.
  Result<void> set_output_parameter(const std::string& account, const std::string& job,
                                    const std::string& task, const NameValue& param);
  /// Forgets a value held as a parameter that turned out to be a metric.
  Result<void> remove_output_parameter(const std::string& account, const std::string& job,
                                       const std::string& task, const std::string& name);
  /// The parameters a run printed in its output, in order of first appearance.
  Result<std::vector<NameValue>> output_parameters(const std::string& account,
                                                   const std::string& job, const std::string& task);
  /// Changes whenever another connection commits (PRAGMA data_version): a cheap "anything new?".
  Result<int64_t> data_version();
  /// Names of the metrics a task has in any stream, in order of first appearance.
  Result<std::vector<std::string>> metric_names(const std::string& account, const std::string& job,
                                                const std::string& task);

  // Sync marks
  /// Records a successful poll of `mark.scope` (its error and any resume point cleared).
  Result<void> set_sync_mark(const std::string& account, const SyncMark& mark);
  /// Records where an unfinished full listing of `scope` goes on (`link`, the next page) and the
  /// service time it began (`from`); the rest of the mark is kept.
  Result<void> set_sync_resume(const std::string& account, const std::string& scope,
                               const std::string& link, std::optional<Timestamp> from);
  /// Records why a poll of `scope` failed, keeping when it last succeeded.
  Result<void> set_sync_error(const std::string& account, const std::string& scope,
                              const std::string& error);
  /// The mark of one scope, or nullopt when it was never polled.
  Result<std::optional<SyncMark>> sync_mark(const std::string& account, const std::string& scope);
  /// Every mark of an account, by scope.
  Result<std::vector<SyncMark>> sync_marks(const std::string& account);

  // Subtasks
  /// Replaces the subtasks of a multi-instance task.
  Result<void> replace_subtasks(const std::string& account, const std::string& job,
                                const std::string& task, const std::vector<Subtask>& subtasks);
  /// The subtasks of a task, by id; empty for a task that is not multi-instance.
  Result<std::vector<Subtask>> subtasks(const std::string& account, const std::string& job,
                                        const std::string& task);

  // Local runs
  /// Inserts or replaces the process record of a local task (synchronous=FULL outside write()).
  Result<void> upsert_local_run(const LocalRun& r);
  /// Every local run record, by job then task (re-attach after a restart).
  Result<std::vector<LocalRun>> local_runs();
  /// The process record of a local task, or nullopt.
  Result<std::optional<LocalRun>> local_run(const std::string& job, const std::string& task);
  /// Removes the process record of a local task.
  Result<void> delete_local_run(const std::string& job, const std::string& task);
  /// Remembers that `run` was removed from `job` (replacing an earlier record of its id).
  Result<void> remember_removed_run(const std::string& account, const std::string& job,
                                    const RemovedRun& run, Timestamp at);
  /// The runs removed from a job, by id.
  Result<std::vector<RemovedRun>> removed_runs(const std::string& account, const std::string& job);
  /// Forgets the runs removed from a job (`submit --rerun-removed`; delete_job does it too).
  Result<void> forget_removed_runs(const std::string& account, const std::string& job);

  /// Records the log a window shows, replacing what its process said before for the account.
  Result<void> watch_log(const WatchedLog& log);
  /// Forgets what process `pid` said it shows of `account`.
  Result<void> unwatch_logs(int64_t pid, const std::string& account);
  /// The logs windows said they show of `account`, oldest word first.
  Result<std::vector<WatchedLog>> watched_logs(const std::string& account);

  /// The raw handle, for the store's own helpers and benchmarks.
  sqlite3* handle() const { return db_; }

 private:
  explicit Store(sqlite3* db);
  // Joins the open write() transaction, or runs `fn` in its own IMMEDIATE one.
  Result<void> atomic(const std::function<Result<void>()>& fn, Durability d = Durability::Cache);
  // Runs reads that span several statements in one snapshot (a deferred transaction).
  Result<void> read(const std::function<Result<void>()>& fn);
  Result<void> load_task_lists(Task& t);
  Result<void> delete_task_rows(const std::string& account, const std::string& job,
                                const std::string* task);

  sqlite3* db_ = nullptr;
  int version_ = 0;
  bool in_write_ = false;  // inside write(): nested writes join instead of BEGIN
  int64_t metric_point_cap_ = kMetricPointCap;
  std::unique_ptr<detail::StatementCache> cache_;
};

/// The data directory: --data-dir, else $TRAINYARD_DATA_DIR, else $XDG_DATA_HOME/trainyard,
/// else ~/.local/share/trainyard.
std::string resolve_data_dir(const std::string& flag);

}  // namespace trainyard
