// Runs removed from a local job (schema version 15): a resubmitted spec leaves them out.
#include "param_rows.hpp"
#include "store/store.hpp"

namespace trainyard {

Result<void> Store::remember_removed_run(const std::string& account, const std::string& job,
                                         const RemovedRun& run, Timestamp at) {
  return atomic([&]() -> Result<void> {
    auto row = cache_->get(
        "INSERT OR REPLACE INTO removed_runs(account, job_id, task_id, command_line, removed_at) "
        "VALUES (?1, ?2, ?3, ?4, ?5)",
        "remember a removed run");
    if (!row) return row.error();
    TY_TRY(row->bind(1, account)
               .bind(2, job)
               .bind(3, run.id)
               .bind(4, run.command_line)
               .bind(5, at)
               .run());
    return detail::replace_param_rows(*cache_, "removed_run_params", account, job, run.id,
                                      run.parameters);
  });
}

Result<std::vector<RemovedRun>> Store::removed_runs(const std::string& account,
                                                    const std::string& job) {
  auto s = cache_->get(
      "SELECT task_id, command_line FROM removed_runs WHERE account = ?1 AND job_id = ?2 "
      "ORDER BY task_id",
      "read removed runs");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job);
  auto runs = detail::collect<RemovedRun>(*s, [](const detail::Stmt& r) {
    return RemovedRun{r.text(0), r.text(1), {}};
  });
  if (!runs) return runs.error();
  auto p = cache_->get(
      "SELECT task_id, name, value FROM removed_run_params WHERE account = ?1 AND job_id = ?2 "
      "ORDER BY task_id, ord",
      "read removed runs' parameters");
  if (!p) return p.error();
  p->bind(1, account).bind(2, job);
  size_t at = 0;
  TY_TRY(detail::each(*p, [&](const detail::Stmt& r) {
    std::string id = r.text(0);
    while (at < runs->size() && (*runs)[at].id < id) ++at;
    if (at < runs->size() && (*runs)[at].id == id)
      (*runs)[at].parameters.push_back({r.text(1), r.text(2)});
  }));
  return runs;
}

Result<void> Store::forget_removed_runs(const std::string& account, const std::string& job) {
  return atomic([&]() -> Result<void> {
    for (const char* sql : {"DELETE FROM removed_run_params WHERE account = ?1 AND job_id = ?2",
                            "DELETE FROM removed_runs WHERE account = ?1 AND job_id = ?2"}) {
      auto s = cache_->get(sql, "forget removed runs");
      if (!s) return s.error();
      TY_TRY(s->bind(1, account).bind(2, job).run());
    }
    return ok_result();
  });
}

}  // namespace trainyard
