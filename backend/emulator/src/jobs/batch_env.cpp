#include "batch_env.hpp"

namespace trainyard::emu {

namespace {

void add_settings(std::vector<NameValue>& out, const nlohmann::json* settings) {
  if (!settings || !settings->is_array()) return;
  for (const auto& nv : *settings) {
    if (!nv.is_object() || !nv.contains("name") || !nv["name"].is_string()) continue;
    out.push_back({nv["name"].get<std::string>(), nv.value("value", "")});
  }
}

}  // namespace

std::vector<NameValue> batch_environment(const BatchEnvInput& in) {
  std::vector<NameValue> env;
  add_settings(env, in.common_settings);
  add_settings(env, in.settings);
  const std::string wd = in.task_dir + "/wd";
  for (auto nv : std::vector<NameValue>{
           {"AZ_BATCH_ACCOUNT_NAME", in.account},
           {"AZ_BATCH_ACCOUNT_URL", in.account_url},
           {"AZ_BATCH_POOL_ID", in.pool},
           {"AZ_BATCH_NODE_ID", in.node},
           {"AZ_BATCH_NODE_IS_DEDICATED", in.dedicated ? "true" : "false"},
           {"AZ_BATCH_NODE_ROOT_DIR", in.node_root},
           {"AZ_BATCH_NODE_SHARED_DIR", in.node_root + "/shared"},
           {"AZ_BATCH_NODE_STARTUP_DIR", in.node_root + "/startup"},
           {"AZ_BATCH_JOB_ID", in.job},
           {"AZ_BATCH_TASK_ID", in.task},
           {"AZ_BATCH_TASK_DIR", in.task_dir},
           {"AZ_BATCH_TASK_WORKING_DIR", wd},
           {"AZ_BATCH_HOST_LIST", in.host_list},
       }) {
    env.push_back(std::move(nv));
  }
  if (!in.master_node.empty()) {
    env.push_back({"AZ_BATCH_MASTER_NODE", in.master_node});
    env.push_back({"AZ_BATCH_IS_CURRENT_NODE_MASTER", in.is_master ? "true" : "false"});
    env.push_back({"AZ_BATCH_TASK_SHARED_DIR", in.task_dir});
  }
  return env;
}

}  // namespace trainyard::emu
