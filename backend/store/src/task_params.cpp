// Sweep parameters of tasks (schema version 2).
#include <fmt/format.h>

#include "param_rows.hpp"
#include "store/store.hpp"

namespace trainyard {

Result<void> detail::replace_param_rows(StatementCache& c, std::string_view table,
                                        const std::string& account, const std::string& job,
                                        const std::string& task,
                                        const std::vector<NameValue>& params) {
  auto del = c.get(
      fmt::format("DELETE FROM {} WHERE account = ?1 AND job_id = ?2 AND task_id = ?3", table),
      "replace parameter rows");
  if (!del) return del.error();
  TY_TRY(del->bind(1, account).bind(2, job).bind(3, task).run());
  const auto insert = fmt::format(
      "INSERT INTO {}(account, job_id, task_id, ord, name, value) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
      table);
  for (size_t i = 0; i < params.size(); ++i) {
    auto ins = c.get(insert, "write parameter rows");
    if (!ins) return ins.error();
    TY_TRY(ins->bind(1, account)
               .bind(2, job)
               .bind(3, task)
               .bind(4, static_cast<int64_t>(i))
               .bind(5, params[i].name)
               .bind(6, params[i].value)
               .run());
  }
  return ok_result();
}

Result<void> Store::set_task_parameters(const std::string& account, const std::string& job,
                                        const std::string& task,
                                        const std::vector<NameValue>& params) {
  return atomic([&] {
    return detail::replace_param_rows(*cache_, "task_params", account, job, task, params);
  });
}

Result<std::vector<NameValue>> Store::task_parameters(const std::string& account,
                                                      const std::string& job,
                                                      const std::string& task) {
  auto s = cache_->get(
      "SELECT name, value FROM task_params WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 "
      "ORDER BY ord",
      "read task parameters");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task);
  return detail::collect<NameValue>(*s, [](const detail::Stmt& r) {
    return NameValue{r.text(0), r.text(1)};
  });
}

}  // namespace trainyard
