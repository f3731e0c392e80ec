#include "task_rows.hpp"

#include "snapshot_order.hpp"

namespace trainyard::detail {
namespace {

void read_execution(const Stmt& s, ExecutionInfo& e) {
  e.start_time = s.opt_time(12);
  e.end_time = s.opt_time(13);
  e.exit_code = s.opt_i32(14);
  e.result = s.opt_wire<TaskResult>(15);
  if (!s.is_null(16)) {
    e.failure_info = FailureInfo{s.wire(16, ErrorCategory::UserError), s.text(17), s.text(18)};
  }
  e.retry_count = s.i32(19);
  e.last_retry_time = s.opt_time(20);
  e.requeue_count = s.i32(21);
}

void bind_execution(ParamsAt s, const ExecutionInfo& e) {
  s.bind(13, e.start_time).bind(14, e.end_time).bind(15, e.exit_code).bind(16, e.result);
  if (e.failure_info) {
    const auto& f = *e.failure_info;
    s.bind(17, f.category).keep(18, f.code).keep(19, f.message);
  } else {
    s.bind(17, std::nullopt).bind(18, std::nullopt).bind(19, std::nullopt);
  }
  s.bind(20, e.retry_count).bind(21, e.last_retry_time).bind(22, e.requeue_count);
}

}  // namespace

const std::string& task_columns() {
  static const std::string cols = [] {
    std::string out;
    for (const char* c : kTaskColumnList) out += (out.empty() ? "" : ", ") + std::string(c);
    return out;
  }();
  return cols;
}

std::string task_insert_rows_sql(size_t rows) {
  return "INSERT INTO tasks(" + task_columns() + ") VALUES " +
         numbered_rows(rows, kTaskColumnList.size());
}

std::string task_upsert_rows_sql(size_t rows) {
  const size_t n = kTaskColumnList.size();
  std::string set;
  for (size_t i = 3; i < n; ++i)  // all but the key
    set += (set.empty() ? "" : ", ") + std::string(kTaskColumnList[i]) + " = excluded." +
           kTaskColumnList[i];
  return "INSERT INTO tasks(" + task_columns() + ") VALUES " + numbered_rows(rows, n) +
         " ON CONFLICT(account, job_id, id) DO UPDATE SET " + set + replaces_unless_older("tasks") +
         " RETURNING id";
}

Task read_task(const Stmt& s) {
  Task t;
  t.account = s.text(0);
  t.job_id = s.text(1);
  t.id = s.text(2);
  t.display_name = s.text(3);
  t.command_line = s.text(4);
  t.state = s.wire(5, TaskState::Active);
  t.creation_time = s.opt_time(6);
  t.state_transition_time = s.opt_time(7);
  t.previous_state = s.opt_wire<TaskState>(8);
  if (!s.is_null(9)) t.constraints.max_wall_clock_time = Duration(s.i64(9));
  t.constraints.max_task_retry_count = s.i32(10);
  t.required_slots = s.i32(11);
  read_execution(s, t.execution_info);
  // node_pool_id is NULL exactly when the task has no nodeInfo.
  if (!s.is_null(22)) t.node_info = TaskNodeInfo{s.text(22), s.text(23), s.text(24)};
  if (!s.is_null(25)) t.multi_instance = MultiInstanceSettings{s.i32(25), s.text(26)};
  t.last_modified = s.opt_time(27);
  t.etag = s.text(28);
  if (!s.is_null(29)) t.resource_files = decode_resource_files(s.text(29));
  if (!s.is_null(30)) t.output_files = decode_output_files(s.text(30));
  return t;
}

void bind_task(Stmt& stmt, const Task& t, int offset) {
  ParamsAt s{stmt, offset};
  s.keep(1, t.account).keep(2, t.job_id).keep(3, t.id).keep(4, t.display_name);
  s.keep(5, t.command_line).bind(6, t.state).bind(7, t.creation_time);
  s.bind(8, t.state_transition_time).bind(9, t.previous_state);
  s.bind(10, t.constraints.max_wall_clock_time).bind(11, t.constraints.max_task_retry_count);
  s.bind(12, t.required_slots);
  bind_execution(s, t.execution_info);
  if (t.node_info) {
    s.keep(23, t.node_info->pool_id).keep(24, t.node_info->node_id);
    s.keep(25, t.node_info->task_root_directory);
  } else {
    s.bind(23, std::nullopt).bind(24, std::nullopt).bind(25, std::nullopt);
  }
  if (t.multi_instance) {
    s.bind(26, t.multi_instance->number_of_instances);
    s.keep(27, t.multi_instance->coordination_command_line);
  } else {
    s.bind(26, std::nullopt).bind(27, std::nullopt);
  }
  s.bind(28, t.last_modified).keep(29, t.etag);
  s.bind(30, encode_resource_files(t.resource_files)).bind(31, encode_output_files(t.output_files));
}

}  // namespace trainyard::detail
