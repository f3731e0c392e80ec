// The task operations: add, add a collection, list, get, update, delete, terminate,
// reactivate, subtasks.
#pragma once

#include <string>

#include "account.hpp"
#include "paging.hpp"

namespace trainyard::emu {

/// Handlers of `/jobs/{job}/tasks` and `/jobs/{job}/addtaskcollection`.
class TaskApi {
 public:
  explicit TaskApi(Account& account) : account_(account) {}

  void add_task(Call& c, const std::string& job);
  void add_task_collection(Call& c, const std::string& job);
  void list_tasks(Call& c, const std::string& job);
  void get_task(Call& c, const std::string& job, const std::string& task);
  void put_task(Call& c, const std::string& job, const std::string& task);
  void delete_task(Call& c, const std::string& job, const std::string& task);
  void task_action(Call& c, const std::string& job, const std::string& task,
                   const std::string& action);
  void subtasks_info(Call& c, const std::string& job, const std::string& task);

 private:
  std::string render_task(const JobEntity& j, const TaskEntity& t, const Select& s) const;
  /// Validates a task body; on success fills `out`. Returns what is wrong with it, if anything.
  BodyError build_task(const nlohmann::json& body, TaskEntity& out);

  Account& account_;
};

}  // namespace trainyard::emu
