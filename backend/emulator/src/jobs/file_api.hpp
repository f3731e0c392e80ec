// Task and node files: list, GET with `ocp-range`, HEAD, DELETE, served from node sandboxes.
#pragma once

#include <string>

#include "account.hpp"
#include "paging.hpp"

namespace trainyard::emu {

/// Handlers of `/jobs/{job}/tasks/{task}/files` and `/pools/{pool}/nodes/{node}/files`.
class FileApi {
 public:
  explicit FileApi(Account& account) : account_(account) {}

  void list_task_files(Call& c, const std::string& job, const std::string& task);
  void task_file(Call& c, const std::string& job, const std::string& task, const std::string& path);
  void list_node_files(Call& c, const std::string& pool, const std::string& node);
  void node_file(Call& c, const std::string& pool, const std::string& node,
                 const std::string& path);

 private:
  Account& account_;
};

}  // namespace trainyard::emu
