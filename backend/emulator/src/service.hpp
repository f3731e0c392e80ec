// The emulated Batch account: its entities, the HTTP routes over them, and the simulation that
// moves them along (node allocation, scheduling, runs in the local engine).
#pragma once

#include <httplib.h>

#include <atomic>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <regex>
#include <shared_mutex>
#include <string>
#include <vector>

#include "call.hpp"
#include "emulator/emulator.hpp"
#include "emulator/odata_filter.hpp"
#include "faults.hpp"
#include "journal.hpp"
#include "model.hpp"
#include "paging.hpp"

namespace trainyard::emu {

class Runner;

/// The command that runs `command` in the task's container (docker or podman), or on the host
/// with a line on stderr saying so when neither answers.
std::string container_command(const std::string& command, const nlohmann::json& settings,
                              const std::string& workdir);

/// The account's state and behaviour. Handlers take the lock they need; the ticker moves
/// time along.
class Service {
 public:
  Service(EmulatorOptions options, Runner* runner);
  ~Service();

  /// Registers every route on `server`.
  void install(httplib::Server& server);
  /// One step of the simulation (called a few times a second).
  void tick();
  /// Builds the deterministic `--seed-tasks` account.
  void seed(int64_t tasks);
  /// The endpoint clients use, e.g. `http://127.0.0.1:8080`.
  void set_base_url(std::string url) { base_url_ = std::move(url); }
  const std::string& base_url() const { return base_url_; }
  /// Writes the state to `options.state_file` when it changed (atomic rename), then drops
  /// the journal entries it now holds.
  void save_if_changed();
  /// Loads `options.state_file` and replays its journal; an error names the file and place.
  Result<void> load();
  /// Stops every run the engine holds (on exit without `--state`).
  void stop_all_runs();
  /// Faults and counters, shared with the control endpoint.
  Faults& faults() { return faults_; }
  Micros now() const;

 private:
  using Handler = std::function<void(Call&, const httplib::Match&)>;
  /// What a request must pass before its route's handler runs.
  enum class Gate {
    Signed,    ///< a known api-version and SharedKey or a bearer token; faults apply
    Control,   ///< as Signed, but never faulted (the test's own control endpoint)
    Identity,  ///< token, IMDS and management endpoints: only with `--identity`; they check
               ///< their own credentials (client secret, `Metadata: true`, bearer token)
  };
  /// One operation: the HTTP server and the journal's replay both route through the table.
  struct Route {
    std::string method;
    std::string pattern;
    std::regex regex;
    Handler fn;
    Gate gate = Gate::Signed;
    /// Answered 2xx, it changed the account: journaled with `--state`. Files are not (they
    /// live on disk, durable on their own), nor tokens, faults and counters.
    bool changes_account = false;
  };
  std::vector<Route> build_routes();
  /// The route `method` (HEAD as GET) and `path` take, as the server picks it (the first in
  /// table order); nullptr when none does.
  const Route* find_route(const std::string& method, const std::string& path,
                          httplib::Match& matches) const;
  /// Runs a route's handler; a change it acknowledges is journaled (with `--state`) before
  /// the answer goes out.
  void answer(const Route& r, const httplib::Request& req, httplib::Response& res);
  /// Applies one journaled change again, as its request was first answered.
  void replay(const JournalEntry& e);
  /// Reads the snapshot; returns the number of the last journal entry it holds.
  Result<uint64_t> load_snapshot();
  /// Replays the journal's entries after `snapshot_seq` and opens it for appending.
  Result<void> open_journal(uint64_t snapshot_seq);

  // Common checks of every request, run before routing: ids, api-version, auth, faults.
  httplib::Server::HandlerResponse pre_route(const httplib::Request& req, httplib::Response& res);
  /// A known api-version and a valid `timeout`; else answers 400.
  bool valid_query(Call& c);
  bool authorized(Call& c);
  /// Draws from `--faults`: answers the fault (Handled) or lets the request through.
  httplib::Server::HandlerResponse inject_fault(Call& c);
  Call call(const httplib::Request& req, httplib::Response& res);

  // Pools
  void add_pool(Call& c);
  void list_pools(Call& c);
  void get_pool(Call& c, const std::string& id);
  void patch_pool(Call& c, const std::string& id, bool replace);
  void delete_pool(Call& c, const std::string& id);
  void pool_action(Call& c, const std::string& id, const std::string& action);
  void resize_pool(Call& c, PoolEntity& p);
  void remove_nodes(Call& c, PoolEntity& p);
  void autoscale_action(Call& c, PoolEntity& p, const std::string& action);
  void node_counts(Call& c);
  void supported_images(Call& c);
  std::string render_pool(const PoolEntity& p, const Select& s) const;
  PoolEntity* find_pool(Call& c, const std::string& id);

  // Nodes
  void list_nodes(Call& c, const std::string& pool);
  void get_node(Call& c, const std::string& pool, const std::string& node);
  void node_action(Call& c, const std::string& pool, const std::string& node,
                   const std::string& action);
  std::string render_node(const NodeEntity& n, const Select& s) const;
  NodeEntity* find_node(Call& c, const std::string& pool, const std::string& node);

  // Jobs
  void add_job(Call& c);
  void list_jobs(Call& c);
  void get_job(Call& c, const std::string& id);
  void patch_job(Call& c, const std::string& id, bool replace);
  void delete_job(Call& c, const std::string& id);
  void job_action(Call& c, const std::string& id, const std::string& action);
  void task_counts(Call& c, const std::string& id);
  void prep_release_status(Call& c, const std::string& id);
  void list_job_schedules(Call& c);
  std::string render_job(const JobEntity& j, const Select& s) const;
  JobEntity* find_job(Call& c, const std::string& id);
  void set_job_state(JobEntity& j, JobState s);
  void complete_job(JobEntity& j, const std::string& reason);

  // Tasks
  void add_task(Call& c, const std::string& job);
  void add_task_collection(Call& c, const std::string& job);
  void list_tasks(Call& c, const std::string& job);
  void get_task(Call& c, const std::string& job, const std::string& task);
  void put_task(Call& c, const std::string& job, const std::string& task);
  void delete_task(Call& c, const std::string& job, const std::string& task);
  void task_action(Call& c, const std::string& job, const std::string& task,
                   const std::string& action);
  void subtasks_info(Call& c, const std::string& job, const std::string& task);
  std::string render_task(const JobEntity& j, const TaskEntity& t, const Select& s) const;
  TaskEntity* find_task(Call& c, JobEntity& j, const std::string& task);
  /// Validates a task body; on success fills `out`. Returns what is wrong with it, if anything.
  BodyError build_task(const nlohmann::json& body, TaskEntity& out);
  void set_task_state(TaskEntity& t, TaskState s);

  // Files
  void list_task_files(Call& c, const std::string& job, const std::string& task);
  void task_file(Call& c, const std::string& job, const std::string& task, const std::string& path);
  void list_node_files(Call& c, const std::string& pool, const std::string& node);
  void node_file(Call& c, const std::string& pool, const std::string& node,
                 const std::string& path);

  // Identity and management plane (bearer tokens, account discovery)
  void token_endpoint(Call& c);
  void imds_endpoint(Call& c);
  void arm_list_accounts(Call& c);
  void arm_list_keys(Call& c);
  std::string issue_token(const std::string& audience);

  // Control endpoint (faults, preemption, counters)
  void control(Call& c, const std::string& what);

  // Simulation
  void tick_pools();
  void tick_nodes();
  void schedule_tasks();
  void collect_runs();
  void start_on_node(JobEntity& j, TaskEntity& t, NodeEntity& n);
  void finish_task(JobEntity& j, TaskEntity& t);
  void requeue_task(JobEntity& j, TaskEntity& t);
  void after_task_completed(JobEntity& j, TaskEntity& t);
  void preempt_node(NodeEntity& n);
  /// Gives back the slots a running task (and each of its instances) holds on its nodes.
  void release_slots(const TaskEntity& t);
  /// Ends the task's primary run in the engine, if it has one.
  void stop_run(const JobEntity& j, const TaskEntity& t, std::chrono::seconds grace);
  NodeEntity& add_node(PoolEntity& p, bool dedicated);
  void launch_start_task(NodeEntity& n, const PoolEntity& p);
  void collect_start_tasks();
  void run_job_preparation(JobEntity& j, NodeEntity& n);
  void run_job_release(JobEntity& j);
  void collect_prep_release();
  void tick_jobs();
  bool dependencies_met(const JobEntity& j, const TaskEntity& t, bool& blocked) const;
  std::vector<NodeEntity*> place(const JobEntity& j, const TaskEntity& t, int instances);
  int free_slots(const NodeEntity& n) const;

  EmulatorOptions options_;
  Runner* runner_;
  std::string base_url_;
  mutable std::shared_mutex mu_;
  std::map<std::string, PoolEntity> pools_;
  std::map<std::string, NodeEntity> nodes_;  ///< by node id, all pools
  std::map<std::string, JobEntity> jobs_;
  std::map<std::string, Micros> tokens_;  ///< bearer token → expiry
  uint64_t node_seq_ = 0;
  int64_t engine_version_ = -2;  ///< the engine store's data_version when runs were last read
  std::atomic<uint64_t> changes_{0};
  uint64_t saved_changes_ = 0;
  // Requests that change state hold it shared from their handler to their journal entry; a
  // snapshot holds it exclusively, so it holds exactly the entries up to the number it records.
  std::shared_mutex writes_gate_;
  Journal journal_;
  std::vector<Route> routes_ = build_routes();
  Faults faults_;
};

}  // namespace trainyard::emu
