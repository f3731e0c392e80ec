// Job preparation (before a job's first task on a node) and release (when the job ends).
#include "account.hpp"
#include "batch_env.hpp"
#include "runner.hpp"
#include "sandbox.hpp"

namespace trainyard::emu {

namespace {

std::string prep_engine_id(const std::string& node, bool release) {
  return engine_id((release ? "jobrelease-" : "jobprep-") + node, 0);
}

Launch prep_launch(const std::string& job, const nlohmann::json& spec, const std::string& dir,
                   std::vector<NameValue> env, const std::string& engine_task) {
  Launch l;
  l.job = job;
  l.task = engine_task;
  l.command_line = spec.value("commandLine", "true");
  l.workdir = dir + "/wd";
  l.environment = std::move(env);
  l.max_retries = spec.value("constraints", nlohmann::json::object()).value("maxTaskRetryCount", 0);
  return l;
}

}  // namespace

void Account::run_job_preparation(JobEntity& j, NodeEntity& n) {
  auto& pr = j.nodes[n.id];
  pr.prep.start = now();
  pr.prep_running = true;
  ++changes_;
  if (!runner_) return;
  const auto& spec = j.spec["jobPreparationTask"];
  const std::string dir = prep_dir(options_.work_dir, n.id, j.id, false);
  BatchEnvInput env{options_.account,
                    base_url_,
                    n.pool_id,
                    n.id,
                    node_dir(options_.work_dir, n.id),
                    j.id,
                    spec.value("id", "jobpreparation"),
                    dir,
                    n.ip,
                    "",
                    true,
                    n.dedicated,
                    spec.contains("environmentSettings") ? &spec["environmentSettings"] : nullptr,
                    j.spec.contains("commonEnvironmentSettings")
                        ? &j.spec["commonEnvironmentSettings"]
                        : nullptr};
  auto l = prep_launch(j.id, spec, dir, batch_environment(env), prep_engine_id(n.id, false));
  if (auto ok = runner_->launch(l); !ok) {
    pr.prep_running = false;
    pr.prep.result = TaskResult::Failure;
    pr.prep.failure_code = "TaskFailedToStart";
    pr.prep.failure_message = ok.error().message;
    return;
  }
  link_outputs(dir, runner_->run_dir(l.job, l.task));
}

void Account::run_job_release(JobEntity& j) {
  if (!j.spec.contains("jobReleaseTask")) return;
  const auto& spec = j.spec["jobReleaseTask"];
  for (auto& [node_id, pr] : j.nodes) {
    auto n = nodes_.find(node_id);
    if (pr.release_started || n == nodes_.end()) continue;
    pr.release_started = pr.release_running = true;
    pr.release.start = now();
    if (!runner_) continue;
    const std::string dir = prep_dir(options_.work_dir, node_id, j.id, true);
    BatchEnvInput env{options_.account,
                      base_url_,
                      n->second.pool_id,
                      node_id,
                      node_dir(options_.work_dir, node_id),
                      j.id,
                      spec.value("id", "jobrelease"),
                      dir,
                      n->second.ip,
                      "",
                      true,
                      n->second.dedicated,
                      spec.contains("environmentSettings") ? &spec["environmentSettings"] : nullptr,
                      j.spec.contains("commonEnvironmentSettings")
                          ? &j.spec["commonEnvironmentSettings"]
                          : nullptr};
    auto l = prep_launch(j.id, spec, dir, batch_environment(env), prep_engine_id(node_id, true));
    l.max_retries = 0;
    if (!runner_->launch(l)) {
      pr.release_running = false;
      continue;
    }
    link_outputs(dir, runner_->run_dir(l.job, l.task));
  }
}

void Account::collect_prep_release() {
  if (!runner_) return;
  for (auto& [jid, j] : jobs_) {
    for (auto& [node_id, pr] : j.nodes) {
      for (bool release : {false, true}) {
        bool& running = release ? pr.release_running : pr.prep_running;
        if (!running) continue;
        auto s = runner_->status(j.id, prep_engine_id(node_id, release));
        if (!s || s->state != trainyard::TaskState::Completed) continue;
        copy_execution(*s, release ? pr.release : pr.prep);
        running = false;
        ++changes_;
      }
    }
  }
}

}  // namespace trainyard::emu
