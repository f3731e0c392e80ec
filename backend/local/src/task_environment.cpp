#include "local/task_environment.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

extern char** environ;

namespace trainyard {
namespace {

constexpr const char* kSecretNames[] = {
    "AZURE_BATCH_ACCESS_KEY",  "AZURE_CLIENT_SECRET",
    "AZURE_STORAGE_KEY",       "AZURE_STORAGE_CONNECTION_STRING",
    "AZURE_STORAGE_SAS_TOKEN", "AZURE_CLIENT_CERTIFICATE_PASSWORD",
    "TRAINYARD_EMULATOR_KEY",  "AZURE_PASSWORD",
};

std::string name_of(const std::string& entry) {
  return entry.substr(0, entry.find('='));
}

// Ordered map keeps the environment deterministic for tests and `ps e` readers.
void set_var(std::map<std::string, std::string>& env, const std::string& name, std::string value) {
  env[name] = std::move(value);
}

// Batch sets these only on the nodes of a multi-instance task; it sets no rank, so the index
// trainyard adds is named TRAINYARD_*. Every instance is this machine, listed once per instance
// as Batch lists one address per node: `mpirun --host $AZ_BATCH_HOST_LIST` then gets N slots
// here and starts them without ssh.
void set_instance_vars(std::map<std::string, std::string>& env, const TaskEnvironmentInput& in) {
  const int count = in.task->multi_instance->number_of_instances;
  std::string hosts;
  for (int i = 0; i < count; ++i) hosts += i ? ",127.0.0.1" : "127.0.0.1";
  set_var(env, "AZ_BATCH_HOST_LIST", hosts);
  set_var(env, "AZ_BATCH_MASTER_NODE", "127.0.0.1:6000");
  set_var(env, "AZ_BATCH_IS_CURRENT_NODE_MASTER", in.instance == 0 ? "true" : "false");
  set_var(env, "AZ_BATCH_TASK_SHARED_DIR", in.shared_dir.empty() ? in.task_dir : in.shared_dir);
  set_var(env, "TRAINYARD_INSTANCE_INDEX", std::to_string(in.instance));
  set_var(env, "TRAINYARD_INSTANCE_COUNT", std::to_string(count));
}

// Under the data directory, so that nothing a task writes to its node's folders lands outside.
void set_node_vars(std::map<std::string, std::string>& env, const TaskEnvironmentInput& in) {
  if (in.data_dir.empty()) return;
  auto dirs = node_dirs(in.data_dir);
  set_var(env, "AZ_BATCH_NODE_ROOT_DIR", dirs.root);
  set_var(env, "AZ_BATCH_NODE_SHARED_DIR", dirs.shared);
  set_var(env, "AZ_BATCH_NODE_STARTUP_DIR", dirs.startup);
}

}  // namespace

NodeDirs node_dirs(const std::string& data_dir) {
  return {data_dir, data_dir + "/shared", data_dir + "/startup",
          data_dir + "/shared/LS_root/mounts"};
}

Result<void> make_node_dirs(const NodeDirs& dirs) {
  if (auto r = make_directories(dirs.shared); !r) return r;
  return make_directories(dirs.startup);
}

bool is_secret_variable(const std::string& name, const std::vector<std::string>& configured) {
  return std::any_of(std::begin(kSecretNames), std::end(kSecretNames),
                     [&](const char* s) { return name == s; }) ||
         std::find(configured.begin(), configured.end(), name) != configured.end();
}

std::vector<std::string> scrub_environment(const std::vector<std::string>& env,
                                           const std::vector<std::string>& configured) {
  std::vector<std::string> out;
  for (const auto& e : env) {
    if (e.find('=') != std::string::npos && !is_secret_variable(name_of(e), configured))
      out.push_back(e);
  }
  return out;
}

std::vector<std::string> current_environment() {
  std::vector<std::string> out;
  for (char** e = environ; e && *e; ++e) out.emplace_back(*e);
  return out;
}

std::vector<std::string> build_task_environment(const TaskEnvironmentInput& in) {
  std::map<std::string, std::string> env;
  for (const auto& e : in.submitter_env) {
    auto eq = e.find('=');
    if (eq != std::string::npos) env[e.substr(0, eq)] = e.substr(eq + 1);
  }
  set_var(env, "PYTHONUNBUFFERED", "1");
  set_var(env, "AZ_BATCH_ACCOUNT_NAME", kLocalAccount);
  set_var(env, "AZ_BATCH_POOL_ID", kLocalPool);
  set_var(env, "AZ_BATCH_NODE_ID", in.node_id);
  set_var(env, "AZ_BATCH_JOB_ID", in.task->job_id);
  set_var(env, "AZ_BATCH_TASK_ID", in.task->id);
  set_var(env, "AZ_BATCH_TASK_DIR", in.task_dir);
  set_var(env, "AZ_BATCH_TASK_WORKING_DIR", in.working_dir);
  set_node_vars(env, in);
  set_var(env, "AZ_BATCH_TASK_RETRY_COUNT", std::to_string(in.attempt));
  set_var(env, "AZ_BATCH_HOST_LIST", "127.0.0.1");
  set_var(env, "AZ_BATCH_NODE_IS_DEDICATED", "true");
  if (in.task->multi_instance) set_instance_vars(env, in);
  // The task's own settings come last: the emulator sets its virtual node's AZ_BATCH_* here.
  for (const auto& nv : in.task->environment_settings) set_var(env, nv.name, nv.value);
  if (!in.gpu_uuids.empty()) {
    std::string joined;
    for (const auto& u : in.gpu_uuids) joined += (joined.empty() ? "" : ",") + u;
    set_var(env, "CUDA_VISIBLE_DEVICES", joined);
  }
  if (!in.run_dir.empty()) set_var(env, kRunDirVariable, in.run_dir);
  std::vector<std::string> out;
  for (const auto& [k, v] : env) out.push_back(k + "=" + v);
  return out;
}

RunPaths run_paths(const std::string& data_dir, const std::string& job, const std::string& task) {
  RunPaths p;
  p.dir = fmt::format("{}/runs/{}/{}", data_dir, job, task);
  p.command = p.dir + "/command.sh";
  p.environment = p.dir + "/environment";
  p.stdout_txt = p.dir + "/stdout.txt";
  p.stderr_txt = p.dir + "/stderr.txt";
  p.supervisor_log = p.dir + "/supervisor.txt";
  return p;
}

Result<std::string> read_small_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorKind::Io, fmt::format("{}: cannot read", path));
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

Result<void> make_directories(const std::string& path) {
  std::error_code ec;
  std::filesystem::create_directories(path, ec);
  if (ec) return make_error(ErrorKind::Io, fmt::format("{}: {}", path, ec.message()));
  return ok_result();
}

std::string attempt_log_path(const std::string& log, int attempt) {
  auto dot = log.rfind(".txt");
  return log.substr(0, dot) + ".attempt-" + std::to_string(attempt) + ".txt";
}

void keep_attempt_logs(const RunPaths& paths, int finished_attempt) {
  for (const auto& from : {paths.stdout_txt, paths.stderr_txt}) {
    std::error_code ec;
    std::filesystem::rename(from, attempt_log_path(from, finished_attempt), ec);
  }
}

}  // namespace trainyard
