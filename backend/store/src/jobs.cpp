// Jobs and their metadata.
#include <map>

#include "snapshot_order.hpp"
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {
namespace {

constexpr const char* kJobColumns =
    "account, id, display_name, pool_id, state, priority, creation_time, state_transition_time, "
    "last_modified, etag, on_all_tasks_complete, on_task_failure, terminate_reason";

Job read_job(const detail::Stmt& s) {
  Job j;
  j.account = s.text(0);
  j.id = s.text(1);
  j.display_name = s.text(2);
  j.pool_id = s.text(3);
  j.state = s.wire(4, JobState::Active);
  j.priority = s.i32(5);
  j.creation_time = s.opt_time(6);
  j.state_transition_time = s.opt_time(7);
  j.last_modified = s.opt_time(8);
  j.etag = s.text(9);
  j.on_all_tasks_complete = s.text(10);
  j.on_task_failure = s.text(11);
  j.terminate_reason = s.text(12);
  return j;
}

Result<void> write_metadata(detail::StatementCache& c, const Job& j) {
  auto del =
      c.get("DELETE FROM job_metadata WHERE account = ?1 AND job_id = ?2", "upsert job metadata");
  if (!del) return del.error();
  TY_TRY(del->bind(1, j.account).bind(2, j.id).run());
  for (size_t i = 0; i < j.metadata.size(); ++i) {
    auto ins = c.get(
        "INSERT INTO job_metadata(account, job_id, ord, name, value) VALUES (?1, ?2, ?3, ?4, ?5)",
        "upsert job metadata");
    if (!ins) return ins.error();
    ins->bind(1, j.account).bind(2, j.id).bind(3, static_cast<int64_t>(i));
    TY_TRY(ins->bind(4, j.metadata[i].name).bind(5, j.metadata[i].value).run());
  }
  return ok_result();
}

Result<void> load_metadata(detail::StatementCache& c, Job& j) {
  auto s =
      c.get("SELECT name, value FROM job_metadata WHERE account = ?1 AND job_id = ?2 ORDER BY ord",
            "read job metadata");
  if (!s) return s.error();
  s->bind(1, j.account).bind(2, j.id);
  auto rows = detail::collect<NameValue>(*s, [](const detail::Stmt& r) {
    return NameValue{r.text(0), r.text(1)};
  });
  if (!rows) return rows.error();
  j.metadata = std::move(*rows);
  return ok_result();
}

// Every job's metadata of an account in one statement, not one per job.
Result<void> load_account_metadata(detail::StatementCache& c, const std::string& account,
                                   std::vector<Job>& jobs) {
  auto s =
      c.get("SELECT job_id, name, value FROM job_metadata WHERE account = ?1 ORDER BY job_id, ord",
            "read every job's metadata");
  if (!s) return s.error();
  s->bind(1, account);
  std::map<std::string, std::vector<NameValue>> by_job;
  TY_TRY(detail::each(*s, [&](const detail::Stmt& r) {
    by_job[r.text(0)].push_back({r.text(1), r.text(2)});
  }));
  for (auto& j : jobs)
    if (auto it = by_job.find(j.id); it != by_job.end()) j.metadata = std::move(it->second);
  return ok_result();
}

}  // namespace

Result<void> Store::upsert_job(const Job& j) {
  return atomic([&]() -> Result<void> {
    static const std::string sql =
        detail::upsert_sql("jobs", kJobColumns, 2, detail::replaces_unless_older("jobs"));
    auto s = cache_->get(sql, "upsert job");
    if (!s) return s.error();
    s->bind(1, j.account).bind(2, j.id).bind(3, j.display_name).bind(4, j.pool_id);
    s->bind(5, j.state).bind(6, j.priority).bind(7, j.creation_time);
    s->bind(8, j.state_transition_time).bind(9, j.last_modified).bind(10, j.etag);
    s->bind(11, j.on_all_tasks_complete).bind(12, j.on_task_failure).bind(13, j.terminate_reason);
    TY_TRY(s->run());
    // An older snapshot leaves the stored job's metadata as it is too.
    return detail::wrote_row(*cache_) ? write_metadata(*cache_, j) : ok_result();
  });
}

Result<std::optional<Job>> Store::job(const std::string& account, const std::string& id) {
  std::optional<Job> out;
  TY_TRY(read([&]() -> Result<void> {
    auto s = cache_->get(
        std::string("SELECT ") + kJobColumns + " FROM jobs WHERE account = ?1 AND id = ?2",
        "read job");
    if (!s) return s.error();
    auto row = s->bind(1, account).bind(2, id).step();
    if (!row) return row.error();
    if (!*row) return ok_result();
    out = read_job(*s);
    return load_metadata(*cache_, *out);
  }));
  return out;
}

Result<std::vector<Job>> Store::jobs(const std::string& account) {
  std::vector<Job> out;
  TY_TRY(read([&]() -> Result<void> {
    auto s = cache_->get(std::string("SELECT ") + kJobColumns +
                             " FROM jobs WHERE account = ?1 ORDER BY creation_time DESC, id",
                         "list jobs");
    if (!s) return s.error();
    s->bind(1, account);
    auto rows = detail::collect<Job>(*s, read_job);
    if (!rows) return rows.error();
    out = std::move(*rows);
    return load_account_metadata(*cache_, account, out);
  }));
  return out;
}

Result<void> Store::delete_job(const std::string& account, const std::string& id) {
  return atomic([&]() -> Result<void> {
    TY_TRY(delete_task_rows(account, id, nullptr));
    TY_TRY(forget_removed_runs(account, id));
    for (const char* sql : {"DELETE FROM job_metadata WHERE account = ?1 AND job_id = ?2",
                            ("DELETE FROM sync_marks WHERE account = ?1 AND "
                             "scope IN ('tasks/' || ?2, 'versions/' || ?2)"),
                            "DELETE FROM jobs WHERE account = ?1 AND id = ?2"}) {
      auto s = cache_->get(sql, "delete job");
      if (!s) return s.error();
      TY_TRY(s->bind(1, account).bind(2, id).run());
    }
    return ok_result();
  });
}

}  // namespace trainyard
