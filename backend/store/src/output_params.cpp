// What a run's output says about the run itself: the parameters it printed as configuration
// (schema version 10) and the attempt it is on.
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {

Result<void> Store::set_output_parameter(const std::string& account, const std::string& job,
                                         const std::string& task, const NameValue& param) {
  return atomic([&]() -> Result<void> {
    auto s = cache_->get(
        "INSERT INTO output_params(account, job_id, task_id, name, value) "
        "VALUES (?1, ?2, ?3, ?4, ?5) "
        "ON CONFLICT(account, job_id, task_id, name) DO UPDATE SET value = excluded.value",
        "write output parameter");
    if (!s) return s.error();
    return s->bind(1, account)
        .bind(2, job)
        .bind(3, task)
        .bind(4, param.name)
        .bind(5, param.value)
        .run();
  });
}

Result<void> Store::remove_output_parameter(const std::string& account, const std::string& job,
                                            const std::string& task, const std::string& name) {
  return atomic([&]() -> Result<void> {
    auto s = cache_->get(
        "DELETE FROM output_params WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 "
        "AND name = ?4",
        "remove output parameter");
    if (!s) return s.error();
    return s->bind(1, account).bind(2, job).bind(3, task).bind(4, name).run();
  });
}

Result<std::vector<NameValue>> Store::output_parameters(const std::string& account,
                                                        const std::string& job,
                                                        const std::string& task) {
  auto s = cache_->get(
      "SELECT name, value FROM output_params WHERE account = ?1 AND job_id = ?2 "
      "AND task_id = ?3 ORDER BY id",
      "read output parameters");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task);
  return detail::collect<NameValue>(*s, [](const detail::Stmt& r) {
    return NameValue{r.text(0), r.text(1)};
  });
}

Result<int> Store::current_attempt(const std::string& account, const std::string& job,
                                   const std::string& task) {
  // A local run's attempt is its own count: a retry or a reactivation raises it.
  auto s = cache_->get(
      account == kLocalAccount
          ? "SELECT attempt FROM local_runs WHERE job_id = ?2 AND task_id = ?3 AND ?1 = ?1"
          : "SELECT retry_count + requeue_count FROM tasks "
            "WHERE account = ?1 AND job_id = ?2 AND id = ?3",
      "read task attempt");
  if (!s) return s.error();
  auto row = s->bind(1, account).bind(2, job).bind(3, task).step();
  if (!row) return row.error();
  int attempt = *row ? s->i32(0) : 0;
  TY_TRY(s->run());
  return attempt;
}

}  // namespace trainyard
