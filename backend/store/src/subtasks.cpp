// Subtasks of multi-instance tasks (schema version 4).
#include "statement.hpp"
#include "store/store.hpp"

namespace trainyard {
namespace {

constexpr const char* kSubtaskColumns =
    "id, state, state_transition_time, start_time, end_time, exit_code, result, "
    "failure_category, failure_code, failure_message, node_pool_id, node_id, node_root_dir";

Subtask read_subtask(const detail::Stmt& s) {
  Subtask st;
  st.id = s.i32(0);
  st.state = s.wire(1, TaskState::Preparing);
  st.state_transition_time = s.opt_time(2);
  auto& e = st.execution_info;
  e.start_time = s.opt_time(3);
  e.end_time = s.opt_time(4);
  e.exit_code = s.opt_i32(5);
  e.result = s.opt_wire<TaskResult>(6);
  if (!s.is_null(7))
    e.failure_info = FailureInfo{s.wire(7, ErrorCategory::UserError), s.text(8), s.text(9)};
  // node_pool_id is NULL exactly when the subtask has no nodeInfo.
  if (!s.is_null(10)) st.node_info = TaskNodeInfo{s.text(10), s.text(11), s.text(12)};
  return st;
}

void bind_subtask(detail::Stmt& s, const Subtask& st) {
  const auto& e = st.execution_info;
  s.bind(4, st.id).bind(5, st.state).bind(6, st.state_transition_time);
  s.bind(7, e.start_time).bind(8, e.end_time).bind(9, e.exit_code).bind(10, e.result);
  if (e.failure_info) {
    s.bind(11, e.failure_info->category).bind(12, e.failure_info->code);
    s.bind(13, e.failure_info->message);
  } else {
    s.bind(11, std::nullopt).bind(12, std::nullopt).bind(13, std::nullopt);
  }
  if (st.node_info) {
    s.bind(14, st.node_info->pool_id).bind(15, st.node_info->node_id);
    s.bind(16, st.node_info->task_root_directory);
  } else {
    s.bind(14, std::nullopt).bind(15, std::nullopt).bind(16, std::nullopt);
  }
}

}  // namespace

Result<void> Store::replace_subtasks(const std::string& account, const std::string& job,
                                     const std::string& task,
                                     const std::vector<Subtask>& subtasks) {
  return atomic([&]() -> Result<void> {
    auto del =
        cache_->get("DELETE FROM subtasks WHERE account = ?1 AND job_id = ?2 AND task_id = ?3",
                    "replace subtasks");
    if (!del) return del.error();
    TY_TRY(del->bind(1, account).bind(2, job).bind(3, task).run());
    for (const auto& st : subtasks) {
      auto ins = cache_->get(
          std::string("INSERT INTO subtasks(account, job_id, task_id, ") + kSubtaskColumns +
              ") VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16)",
          "write subtasks");
      if (!ins) return ins.error();
      ins->bind(1, account).bind(2, job).bind(3, task);
      bind_subtask(*ins, st);
      TY_TRY(ins->run());
    }
    return ok_result();
  });
}

Result<std::vector<Subtask>> Store::subtasks(const std::string& account, const std::string& job,
                                             const std::string& task) {
  auto s = cache_->get(std::string("SELECT ") + kSubtaskColumns +
                           " FROM subtasks WHERE account = ?1 AND job_id = ?2 AND task_id = ?3 "
                           "ORDER BY id",
                       "read subtasks");
  if (!s) return s.error();
  s->bind(1, account).bind(2, job).bind(3, task);
  return detail::collect<Subtask>(*s, read_subtask);
}

}  // namespace trainyard
