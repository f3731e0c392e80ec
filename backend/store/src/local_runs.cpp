// Process records of local runs: the user's intent, written with synchronous=FULL.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {
namespace {

constexpr const char* kRunColumns =
    "job_id, task_id, run_dir, workdir, gpu_ids, attempt, supervisor_pid, supervisor_start, "
    "pid, pgid, start_ticks, stop_requested, grace_seconds, instance_groups, waiting_reason, "
    "pinned_gpu_ids, exit_conditions";

LocalRun read_run(const detail::Stmt& s) {
  LocalRun r;
  r.job = s.text(0);
  r.task = s.text(1);
  r.run_dir = s.text(2);
  r.workdir = s.text(3);
  r.gpu_ids = s.text(4);
  r.attempt = s.i32(5);
  r.supervisor_pid = s.i64(6);
  r.supervisor_start = s.i64(7);
  r.pid = s.i64(8);
  r.pgid = s.i64(9);
  r.start_ticks = s.i64(10);
  r.stop_requested = s.flag(11);
  r.grace_seconds = s.i32(12);
  r.instance_groups = s.text(13);
  r.waiting_reason = s.text(14);
  r.pinned_gpu_ids = s.text(15);
  r.exit_conditions = s.text(16);
  return r;
}

}  // namespace

Result<void> Store::upsert_local_run(const LocalRun& r) {
  return atomic(
      [&]() -> Result<void> {
        auto s = cache_->get(std::string("INSERT OR REPLACE INTO local_runs(") + kRunColumns +
                                 ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, "
                                 "?13, ?14, ?15, ?16, ?17)",
                             "upsert local run");
        if (!s) return s.error();
        s->bind(1, r.job).bind(2, r.task).bind(3, r.run_dir).bind(4, r.workdir);
        s->bind(5, r.gpu_ids).bind(6, r.attempt).bind(7, r.supervisor_pid);
        s->bind(8, r.supervisor_start).bind(9, r.pid).bind(10, r.pgid).bind(11, r.start_ticks);
        s->bind(12, r.stop_requested).bind(13, r.grace_seconds);
        s->bind(14, r.instance_groups).bind(15, r.waiting_reason);
        return s->bind(16, r.pinned_gpu_ids).bind(17, r.exit_conditions).run();
      },
      Durability::Intent);
}

Result<std::optional<LocalRun>> Store::local_run(const std::string& job, const std::string& task) {
  auto s = cache_->get(
      std::string("SELECT ") + kRunColumns + " FROM local_runs WHERE job_id = ?1 AND task_id = ?2",
      "read local run");
  if (!s) return s.error();
  auto row = s->bind(1, job).bind(2, task).step();
  if (!row) return row.error();
  if (!*row) return std::optional<LocalRun>();
  return std::optional<LocalRun>(read_run(*s));
}

Result<std::vector<LocalRun>> Store::local_runs() {
  auto s = cache_->get(
      std::string("SELECT ") + kRunColumns + " FROM local_runs ORDER BY job_id, task_id",
      "list local runs");
  if (!s) return s.error();
  return detail::collect<LocalRun>(*s, read_run);
}

Result<void> Store::delete_local_run(const std::string& job, const std::string& task) {
  return atomic(
      [&]() -> Result<void> {
        auto s = cache_->get("DELETE FROM local_runs WHERE job_id = ?1 AND task_id = ?2",
                             "delete local run");
        if (!s) return s.error();
        return s->bind(1, job).bind(2, task).run();
      },
      Durability::Intent);
}

}  // namespace trainyard
