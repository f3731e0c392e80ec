// The emulated Batch account: its entities, the lookups and state changes every resource's
// handlers share, and the simulation that moves the account along (node allocation,
// scheduling, runs in the local engine).
#pragma once

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "call.hpp"
#include "emulator/emulator.hpp"
#include "model.hpp"

namespace trainyard::emu {

class Runner;
class FileMover;

/// The command that runs `command` in the task's container (docker or podman), or on the host
/// with a line on stderr saying so when neither answers.
std::string container_command(const std::string& command, const nlohmann::json& settings,
                              const std::string& workdir);

/// The account's state and what more than one resource does to it. The entity maps are the
/// handlers' to read and change under `mu_`; tick() moves time along under it.
class Account {
 public:
  Account(EmulatorOptions options, Runner* runner);
  ~Account();

  Micros now() const;
  /// One step of the simulation (called a few times a second).
  void tick();
  /// Builds the deterministic `--seed-tasks` account.
  void seed(int64_t tasks);
  /// Stops every run the engine holds (on exit without `--state`).
  void stop_all_runs();

  // Lookups: each answers the resource's 404 on `c` and returns nullptr when it is not there.
  PoolEntity* find_pool(Call& c, const std::string& id);
  NodeEntity* find_node(Call& c, const std::string& pool, const std::string& node);
  JobEntity* find_job(Call& c, const std::string& id);
  TaskEntity* find_task(Call& c, JobEntity& j, const std::string& task);

  // State changes that keep the account consistent (times, ETags, slots, runs).
  void set_job_state(JobEntity& j, JobState s);
  void set_task_state(TaskEntity& t, TaskState s);
  void complete_job(JobEntity& j, const std::string& reason);
  void requeue_task(JobEntity& j, TaskEntity& t);
  void after_task_completed(JobEntity& j, TaskEntity& t);
  void preempt_node(NodeEntity& n);
  /// Gives back the slots a running task (and each of its instances) holds on its nodes.
  void release_slots(const TaskEntity& t);
  /// Ends the task's primary run in the engine, if it has one.
  void stop_run(const JobEntity& j, const TaskEntity& t, std::chrono::seconds grace);
  NodeEntity& add_node(PoolEntity& p, bool dedicated);

  EmulatorOptions options_;
  Runner* const runner_;
  std::string base_url_;  ///< the endpoint clients use, e.g. `http://127.0.0.1:8080`
  mutable std::shared_mutex mu_;
  std::map<std::string, PoolEntity> pools_;
  std::map<std::string, NodeEntity> nodes_;  ///< by node id, all pools
  std::map<std::string, JobEntity> jobs_;
  std::map<std::string, Micros> tokens_;  ///< bearer token → expiry
  uint64_t node_seq_ = 0;
  std::atomic<uint64_t> changes_{0};
  std::unique_ptr<FileMover> mover_;  ///< with a runner: tasks' file transfers

 private:
  void tick_pools();
  void tick_nodes();
  void schedule_tasks();
  void collect_runs();
  void start_on_node(JobEntity& j, TaskEntity& t, NodeEntity& n);
  void launch_instances(JobEntity& j, TaskEntity& t);
  bool download_inputs(const JobEntity& j, TaskEntity& t);
  bool upload_outputs(const JobEntity& j, TaskEntity& t);
  void apply_moved_files();
  void finish_task(JobEntity& j, TaskEntity& t);
  void launch_start_task(NodeEntity& n, const PoolEntity& p);
  void collect_start_tasks();
  void run_job_preparation(JobEntity& j, NodeEntity& n);
  void run_job_release(JobEntity& j);
  void collect_prep_release();
  void tick_jobs();
  bool dependencies_met(const JobEntity& j, const TaskEntity& t, bool& blocked) const;
  std::vector<NodeEntity*> place(const JobEntity& j, const TaskEntity& t, int instances);
  int free_slots(const NodeEntity& n) const;

  int64_t engine_version_ = -2;  ///< the engine store's data_version when runs were last read
};

}  // namespace trainyard::emu
