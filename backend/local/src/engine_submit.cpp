#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <set>

#include <random>

#include <fmt/format.h>

#include "gpu_id_list.hpp"
#include "job_completion.hpp"
#include "local/engine.hpp"
#include "local/process.hpp"
#include "local/task_environment.hpp"
#include "run_files.hpp"

namespace trainyard {
namespace {

Error usage(std::string msg) {
  return make_error(ErrorKind::Usage, std::move(msg));
}

// Same-job dependencies are stored as bare ids, as Batch does; others as JOB/TASK.
Result<std::vector<std::string>> dependency_ids(const SubmitRequest& req) {
  std::vector<std::string> out;
  for (const auto& a : req.after) {
    auto slash = a.find('/');
    std::string job = slash == std::string::npos ? req.job : a.substr(0, slash);
    std::string task = slash == std::string::npos ? a : a.substr(slash + 1);
    if (!is_valid_batch_id(job) || !is_valid_batch_id(task))
      return usage(fmt::format("--after '{}': expected JOB/TASK", a));
    out.push_back(job == req.job ? task : job + "/" + task);
  }
  return out;
}

Result<void> validate(const SubmitRequest& req, int total_slots, int gpu_count) {
  if (req.command_line.empty()) return usage("no command given: trainyard run -- CMD...");
  if (!is_valid_batch_id(req.job)) return usage(fmt::format("invalid job id '{}'", req.job));
  if (!req.id.empty() && !is_valid_batch_id(req.id))
    return usage(
        fmt::format("invalid task id '{}' (letters, digits, - and _, at most 64)", req.id));
  if (req.instances < 1) return usage("--instances must be at least 1");
  int wanted =
      req.gpu_ids.empty() ? req.gpus * req.instances : static_cast<int>(req.gpu_ids.size());
  if (wanted < 1) return usage("--gpus must be at least 1");
  if (!req.gpu_ids.empty() && static_cast<int>(req.gpu_ids.size()) % req.instances != 0)
    return usage(fmt::format("--gpu-ids: {} GPU(s) do not split evenly over {} instances",
                             req.gpu_ids.size(), req.instances));
  if (wanted > total_slots)
    return usage(
        req.instances > 1
            ? fmt::format("{} instances need {} slot(s) but the local node has {}", req.instances,
                          wanted, total_slots)
            : fmt::format("asked for {} slot(s) but the local node has {}", wanted, total_slots));
  for (int id : req.gpu_ids) {
    if (id < 0 || id >= gpu_count)
      return usage(
          fmt::format("--gpu-ids: GPU {} does not exist ({} GPU(s) found)", id, gpu_count));
  }
  return ok_result();
}

// Written without a sync each: a submission of thousands of tasks syncs once (sync_data_dir).
Result<void> write_run_files(const RunPaths& paths, const SubmitRequest& req,
                             const std::vector<std::string>& secrets) {
  if (auto r = make_directories(paths.dir); !r) return r;
  if (auto r = write_file_atomic(paths.command, req.command_line + "\n", 0600, false); !r) return r;
  return write_file_atomic(paths.environment, environment_blob(req.environment, secrets), 0600,
                           false);
}

void sync_data_dir(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::syncfs(fd);
  ::close(fd);
}

}  // namespace

std::string environment_blob(const std::vector<std::string>& env,
                             const std::vector<std::string>& secrets) {
  std::string out;
  for (const auto& e : scrub_environment(env, secrets)) out += e + '\0';
  return out;
}

int slots_held(const Task& t) {
  return t.required_slots *
         (t.multi_instance ? std::max(1, t.multi_instance->number_of_instances) : 1);
}

bool is_valid_batch_id(const std::string& id) {
  if (id.empty() || id.size() > 64) return false;
  for (char c : id) {
    if (!std::isalnum(static_cast<unsigned char>(c)) && c != '-' && c != '_') return false;
  }
  return true;
}

std::string LocalEngine::generate_task_id(const std::string& job) {
  std::random_device rd;
  auto now = std::chrono::system_clock::to_time_t(clock_.now());
  std::tm tm{};
  gmtime_r(&now, &tm);
  for (;;) {
    auto id =
        fmt::format("run-{:02}{:02}{:02}-{:02}{:02}{:02}-{:04x}", tm.tm_year % 100, tm.tm_mon + 1,
                    tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec, rd() & 0xffff);
    auto existing = store_.task(kLocalAccount, job, id);
    if (existing && !existing->has_value()) return id;
  }
}

Result<Task> LocalEngine::build_task(const SubmitRequest& req, int slots, int gpu_count) {
  if (auto v = validate(req, slots, gpu_count); !v) return v.error();
  auto deps = dependency_ids(req);
  if (!deps) return deps.error();
  Task t;
  t.account = kLocalAccount;
  t.job_id = req.job;
  t.id = req.id.empty() ? generate_task_id(req.job) : req.id;
  t.display_name = req.display_name;
  t.command_line = req.command_line;
  t.creation_time = t.state_transition_time = clock_.now();
  t.environment_settings = req.environment_settings;
  t.constraints.max_task_retry_count = req.max_retries;
  t.constraints.max_wall_clock_time = req.max_wall;
  t.depends_on.task_ids = *deps;
  t.required_slots =
      req.gpu_ids.empty() ? req.gpus : static_cast<int>(req.gpu_ids.size()) / req.instances;
  if (req.instances > 1 || !req.coordination_command.empty())
    t.multi_instance = MultiInstanceSettings{req.instances, req.coordination_command};
  return t;
}

Result<void> LocalEngine::check_new(const std::vector<Task>& tasks) {
  std::set<std::pair<std::string, std::string>> seen;
  for (const auto& t : tasks) {
    if (!seen.insert({t.job_id, t.id}).second)
      return make_error(ErrorKind::Usage, fmt::format("task {}/{} is given twice", t.job_id, t.id));
    auto existing = store_.task(kLocalAccount, t.job_id, t.id);
    if (!existing) return existing.error();
    if (existing->has_value())
      return make_error(ErrorKind::Conflict,
                        fmt::format("task {}/{} exists already", t.job_id, t.id));
  }
  return ok_result();
}

Result<void> LocalEngine::record_locked(const std::vector<Task>& tasks,
                                        const std::vector<SubmitRequest>& reqs,
                                        const std::optional<Job>& job_template) {
  if (auto c = check_new(tasks); !c) return c;
  for (size_t i = 0; i < tasks.size(); ++i) {
    const Task& t = tasks[i];
    auto job = store_.job(kLocalAccount, t.job_id);
    if (!job) return job.error();
    TY_TRY(refuse_if_completed(*job, "submit"));
    if (!job->has_value()) {
      Job j = job_template && job_template->id == t.job_id ? *job_template : Job{};
      j.account = kLocalAccount;
      j.id = t.job_id;
      j.pool_id = kLocalPool;
      j.creation_time = j.state_transition_time = t.creation_time;
      if (auto r = store_.upsert_job(j); !r) return r;
    }
    LocalRun run;
    run.job = t.job_id;
    run.task = t.id;
    run.run_dir = run_paths(config_.data_dir, t.job_id, t.id).dir;
    run.workdir = reqs[i].workdir;
    run.gpu_ids = run.pinned_gpu_ids = format_gpu_ids(reqs[i].gpu_ids);
    run.grace_seconds = static_cast<int>(config_.default_grace.count());
    run.exit_conditions = reqs[i].exit_conditions;
    if (auto r = store_.upsert_local_run(run); !r) return r;
    if (auto r = store_.upsert_task(t); !r) return r;
    if (!reqs[i].parameters.empty())
      if (auto r = store_.set_task_parameters(kLocalAccount, t.job_id, t.id, reqs[i].parameters);
          !r)
        return r;
  }
  return ok_result();
}

Result<std::vector<Task>> LocalEngine::submit_all(const std::vector<SubmitRequest>& reqs,
                                                  const std::optional<Job>& job_template) {
  auto node = ensure_local_node();
  if (!node) return node.error();
  // NVML unreadable: pinned ids are checked against the node's slots (one per GPU).
  auto gpus = probe_gpus();
  int gpu_count = gpus ? static_cast<int>(gpus->size()) : node->task_slots;
  std::vector<Task> tasks;
  for (const auto& req : reqs) {
    auto t = build_task(req, node->task_slots, gpu_count);
    if (!t) return t.error();
    tasks.push_back(std::move(*t));
  }
  // Nothing is written unless every task is new; files go first so a recorded task always
  // finds its command, and they are removed again when the transaction fails.
  if (auto c = check_new(tasks); !c) return c.error();
  for (size_t i = 0; i < tasks.size(); ++i) {
    auto paths = run_paths(config_.data_dir, tasks[i].job_id, tasks[i].id);
    if (auto r = write_run_files(paths, reqs[i], config_.secret_variables); !r) {
      remove_run_dirs(tasks);
      return r.error();
    }
  }
  sync_data_dir(config_.data_dir);
  auto wrote =
      store_.write([&] { return record_locked(tasks, reqs, job_template); }, Durability::Intent);
  if (!wrote) {
    remove_run_dirs(tasks);
    return wrote.error();
  }
  if (auto s = schedule(); !s) return s.error();
  return tasks;
}

Result<Task> LocalEngine::submit(const SubmitRequest& req) {
  auto done = submit_all({req});
  if (!done) return done.error();
  auto stored = store_.task(kLocalAccount, done->front().job_id, done->front().id);
  if (!stored) return stored.error();
  return stored->value_or(done->front());
}

void LocalEngine::remove_run_dirs(const std::vector<Task>& tasks) {
  for (const auto& t : tasks) {
    std::error_code ec;
    std::filesystem::remove_all(run_paths(config_.data_dir, t.job_id, t.id).dir, ec);
  }
}

std::string local_node_id() {
  char host[256] = {};
  if (gethostname(host, sizeof host - 1) != 0 || host[0] == '\0') return "localhost";
  return host;
}

}  // namespace trainyard
