// The tasks table's columns and row decoding, shared by tasks.cpp and task_query.cpp.
#pragma once

#include <array>
#include <string>

#include "core/entities.hpp"
#include "statement.hpp"

namespace trainyard::detail {

/// Task columns in the order read_task() decodes and bind_task() binds (?1 … ?31); the first
/// three are the key.
inline constexpr std::array<const char*, 31> kTaskColumnList = {"account",
                                                                "job_id",
                                                                "id",
                                                                "display_name",
                                                                "command_line",
                                                                "state",
                                                                "creation_time",
                                                                "state_transition_time",
                                                                "previous_state",
                                                                "max_wall_clock_us",
                                                                "max_task_retry_count",
                                                                "required_slots",
                                                                "start_time",
                                                                "end_time",
                                                                "exit_code",
                                                                "result",
                                                                "failure_category",
                                                                "failure_code",
                                                                "failure_message",
                                                                "retry_count",
                                                                "last_retry_time",
                                                                "requeue_count",
                                                                "node_pool_id",
                                                                "node_id",
                                                                "node_root_dir",
                                                                "instances",
                                                                "coordination_command",
                                                                "last_modified",
                                                                "etag",
                                                                "resource_files",
                                                                "output_files"};

/// kTaskColumnList joined with ", ", for SELECT lists.
const std::string& task_columns();
/// The task upsert of `rows` tasks in one statement (row r binds ?(31r+1) … ?(31r+31)):
/// INSERT … ON CONFLICT(key) DO UPDATE every other column unless the incoming row is an older
/// snapshot (replaces_unless_older); it returns the id of each row it wrote.
std::string task_upsert_rows_sql(size_t rows);
/// The plain INSERT of `rows` tasks (bound as task_upsert_rows_sql's), for tasks known to be
/// absent: no conflict to resolve and no ids to return.
std::string task_insert_rows_sql(size_t rows);

/// A statement's parameters seen from `offset`: bind(i) binds ?(offset + i), so one row's
/// binder serves every row of a multi-row statement.
struct ParamsAt {
  Stmt& stmt;
  int offset = 0;
  template <typename V>
  ParamsAt& bind(int i, const V& v) {
    stmt.bind(offset + i, v);
    return *this;
  }
  /// Binds a string the caller's rows own without copying it (Stmt::bind_kept): only lvalues,
  /// which outlive the statement's use; a temporary would not.
  ParamsAt& keep(int i, const std::string& v) {
    stmt.bind_kept(offset + i, v);
    return *this;
  }
  ParamsAt& keep(int i, const std::optional<std::string>& v) {
    if (v) return keep(i, *v);
    stmt.bind(offset + i, std::nullopt);
    return *this;
  }
  ParamsAt& keep(int i, std::string&&) = delete;
  ParamsAt& keep(int i, std::optional<std::string>&&) = delete;
};

/// Decodes a row selected with kTaskColumns (lists left empty).
Task read_task(const Stmt& s);
/// Binds every kTaskColumns value of `t` as ?(offset + 1) … ?(offset + 31). Its text is bound in
/// place (ParamsAt::keep): `t` must outlive the statement's use.
void bind_task(Stmt& s, const Task& t, int offset = 0);

/// A task's resourceFiles as stored in their column (task_file_lists.cpp); nullopt (NULL) when
/// there are none.
std::optional<std::string> encode_resource_files(const std::vector<ResourceFile>& files);
/// The resource files of a stored column; none when it is not a list the store wrote.
std::vector<ResourceFile> decode_resource_files(const std::string& text);
/// A task's outputFiles as stored in their column; nullopt (NULL) when there are none.
std::optional<std::string> encode_output_files(const std::vector<OutputFile>& files);
/// The output files of a stored column; none when it is not a list the store wrote.
std::vector<OutputFile> decode_output_files(const std::string& text);

}  // namespace trainyard::detail
