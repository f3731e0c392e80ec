#include "local_container.hpp"

#include <cstdlib>

#include "local/process.hpp"

namespace trainyard {
namespace {

// What the local engine sets for every task (local/task_environment.cpp).
constexpr const char* kEngineVariables[] = {
    "PYTHONUNBUFFERED",          "AZ_BATCH_ACCOUNT_NAME",
    "AZ_BATCH_POOL_ID",          "AZ_BATCH_NODE_ID",
    "AZ_BATCH_JOB_ID",           "AZ_BATCH_TASK_ID",
    "AZ_BATCH_TASK_DIR",         "AZ_BATCH_TASK_WORKING_DIR",
    "AZ_BATCH_NODE_ROOT_DIR",    "AZ_BATCH_NODE_SHARED_DIR",
    "AZ_BATCH_NODE_STARTUP_DIR", "AZ_BATCH_TASK_RETRY_COUNT",
    "AZ_BATCH_HOST_LIST",        "AZ_BATCH_NODE_IS_DEDICATED",
    "AZ_BATCH_MASTER_NODE",      "AZ_BATCH_IS_CURRENT_NODE_MASTER",
    "AZ_BATCH_TASK_SHARED_DIR",  "TRAINYARD_INSTANCE_INDEX",
    "TRAINYARD_INSTANCE_COUNT",  "CUDA_VISIBLE_DEVICES",
};

}  // namespace

std::string local_container_runtime() {
  for (const char* rt : {"docker", "podman"}) {
    std::string probe = std::string(rt) + " info >/dev/null 2>&1";
    if (std::system(probe.c_str()) == 0) return rt;
  }
  return "";
}

std::string container_command_line(const std::string& runtime, const spec::ContainerSettings& c,
                                   const std::string& command,
                                   const std::vector<std::string>& names) {
  // Expanded by the task's /bin/sh when the attempt starts, so the paths are the run's own.
  std::string out = runtime +
                    " run --rm --init --network host"
                    " -v \"$AZ_BATCH_TASK_DIR:$AZ_BATCH_TASK_DIR\""
                    " -v \"$AZ_BATCH_TASK_WORKING_DIR:$AZ_BATCH_TASK_WORKING_DIR\""
                    " -v \"$AZ_BATCH_NODE_SHARED_DIR:$AZ_BATCH_NODE_SHARED_DIR\"";
  if (c.workingDirectory.value_or("taskWorkingDirectory") != "containerImageDefault")
    out += " -w \"$AZ_BATCH_TASK_WORKING_DIR\"";
  // `-e NAME` without a value passes the variable from the task's environment, and leaves
  // out one that is not set: no value (a secret included) appears on the command line.
  for (const char* n : kEngineVariables) out += std::string(" -e ") + n;
  for (const auto& n : names) out += " -e " + shell_quote({n});
  out += " ${CUDA_VISIBLE_DEVICES:+--gpus \"device=$CUDA_VISIBLE_DEVICES\"}";
  if (c.containerRunOptions && !c.containerRunOptions->empty()) out += " " + *c.containerRunOptions;
  return out + " " + shell_quote({c.imageName}) + " /bin/sh -c " + shell_quote({command});
}

}  // namespace trainyard
