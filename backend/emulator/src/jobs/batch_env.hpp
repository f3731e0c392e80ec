// The environment Batch gives a task on a node.
#pragma once

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "core/entities.hpp"

namespace trainyard::emu {

/// What a task's environment is built from.
struct BatchEnvInput {
  std::string account;
  std::string account_url;
  std::string pool;
  std::string node;
  std::string node_root;
  std::string job;
  std::string task;  ///< Batch task id (not the engine's)
  std::string task_dir;
  std::string host_list;    ///< multi-instance: every instance's IP; else the node's
  std::string master_node;  ///< multi-instance: primary IP:port
  bool is_master = true;
  bool dedicated = true;
  const nlohmann::json* settings = nullptr;         ///< the task's environmentSettings
  const nlohmann::json* common_settings = nullptr;  ///< the job's commonEnvironmentSettings
};

/// AZ_BATCH_* plus the job's and the task's settings (the task's win over the job's).
std::vector<NameValue> batch_environment(const BatchEnvInput& in);

}  // namespace trainyard::emu
