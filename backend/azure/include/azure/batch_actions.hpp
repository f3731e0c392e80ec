// Batch actions: the calls that change pools, nodes, jobs and tasks, plus the single-entity reads
// a caller makes afterwards to show the result. Each is one signed, retried request (add_tasks:
// one per collection of 100) and returns errors as values, never throws.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "azure/batch_client.hpp"
#include "core/entities.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

// ---- Options ---------------------------------------------------------------------------------

/// What happens to a node's running tasks when it reboots, is reimaged, removed or stops taking
/// work (Batch's ComputeNodeRebootOption, …ReimageOption, …DeallocationOption and
/// DisableComputeNodeSchedulingOption; the last has no `retaineddata`).
enum class NodeTaskOption { Requeue, Terminate, TaskCompletion, RetainedData };

/// What happens to a job's running tasks when it is disabled (DisableJobOption).
enum class DisableJobOption { Requeue, Terminate, Wait };

/// The wire name: `requeue`, `terminate`, `taskcompletion`, `retaineddata`.
const char* wire_name(NodeTaskOption o);
/// The wire name: `requeue`, `terminate`, `wait`.
const char* wire_name(DisableJobOption o);
/// Parses a NodeTaskOption case-insensitively; a Usage error listing the choices otherwise.
Result<NodeTaskOption> parse_node_task_option(const std::string& text);
/// Parses a DisableJobOption case-insensitively; a Usage error listing the choices otherwise.
Result<DisableJobOption> parse_disable_job_option(const std::string& text);

// ---- Single-entity reads (to refresh a cache after an action) -------------------------------

/// `GET /pools/{pool}` as an entity; NotFound when it is gone.
Result<Pool> get_pool(BatchClient& client, const std::string& pool);
/// `GET /pools/{pool}/nodes/{node}` as an entity.
Result<Node> get_node(BatchClient& client, const std::string& pool, const std::string& node);
/// `GET /jobs/{job}` as an entity.
Result<Job> get_job(BatchClient& client, const std::string& job);
/// `GET /jobs/{job}/tasks/{task}` as an entity.
Result<Task> get_task(BatchClient& client, const std::string& job, const std::string& task);
/// The subtasks of a multi-instance task (`subtasksinfo`; the primary is the task itself).
Result<std::vector<Subtask>> list_subtasks(BatchClient& client, const std::string& job,
                                           const std::string& task);

// ---- Pools -----------------------------------------------------------------------------------

/// `POST /pools` with `body` (wire names: id, vmSize, virtualMachineConfiguration, …). A Usage
/// error, sending nothing, when the body is not an object with a string `id`.
Result<void> create_pool(BatchClient& client, const nlohmann::json& body);

/// `POST /pools/{pool}/resize`: the new targets (nullopt: leave that kind as it is; at least one
/// must be given) and an optional resize timeout (the service's default is 15 minutes).
Result<void> resize_pool(BatchClient& client, const std::string& pool, std::optional<int> dedicated,
                         std::optional<int> spot,
                         std::optional<Duration> resize_timeout = std::nullopt);

/// `POST /pools/{pool}/stopresize`: the pool stops where it is (`stopping`, then `steady`).
Result<void> stop_resize_pool(BatchClient& client, const std::string& pool);

/// `POST /pools/{pool}/enableautoscale` with a formula and an optional evaluation interval
/// (the service's default is 15 minutes; it allows 5 minutes to 168 hours).
Result<void> enable_autoscale(BatchClient& client, const std::string& pool,
                              const std::string& formula,
                              std::optional<Duration> interval = std::nullopt);

/// `POST /pools/{pool}/disableautoscale`: the pool keeps its current targets.
Result<void> disable_autoscale(BatchClient& client, const std::string& pool);

/// A pool's autoscale settings.
struct PoolAutoScale {
  bool enabled = false;  ///< enableAutoScale
  std::string formula;   ///< autoScaleFormula; empty when autoscale is off
  std::string interval;  ///< autoScaleEvaluationInterval (ISO 8601); empty when off
};

/// `GET /pools/{pool}` for its autoscale settings only.
Result<PoolAutoScale> get_pool_autoscale(BatchClient& client, const std::string& pool);

/// An AutoScaleRun: what a formula evaluated to.
struct AutoScaleEvaluation {
  std::string results;  ///< `$TargetDedicatedNodes=2;$NodeDeallocationOption=requeue;…`
  std::string error;    ///< `Code: message (detail)` when the formula failed; empty otherwise
  /// The results one assignment a line, then `error: …` when there is one.
  std::string text() const;
};

/// `POST /pools/{pool}/evaluateautoscale`: evaluates `formula` without applying it (the pool
/// must have autoscale enabled). A formula error is part of the evaluation, not a failure.
Result<AutoScaleEvaluation> evaluate_autoscale(BatchClient& client, const std::string& pool,
                                               const std::string& formula);

/// `DELETE /pools/{pool}`: the pool turns `deleting` and goes away when its nodes are released.
Result<void> delete_pool(BatchClient& client, const std::string& pool);

/// One entry of `GET /supportedimages`: an image and the node agent that runs on it.
struct SupportedImage {
  std::string node_agent_sku_id;  ///< `batch.node.ubuntu 22.04`
  std::string publisher, offer, sku, version;
  std::string os_type;            ///< `linux` or `windows`
  std::string verification_type;  ///< `verified` or `unverified`
  std::vector<std::string> capabilities;
  std::optional<Timestamp> batch_support_end_of_life;  ///< when Batch stops supporting it
  /// True when support ended at or before `now`.
  bool past_end_of_life(Timestamp now) const {
    return batch_support_end_of_life && *batch_support_end_of_life <= now;
  }
};

/// Parses one supportedimages item; a Parse error names the member's JSON pointer.
Result<SupportedImage> parse_supported_image(const nlohmann::json& j);

/// Every image the account supports (all pages).
Result<std::vector<SupportedImage>> supported_images(BatchClient& client);

// ---- Nodes -----------------------------------------------------------------------------------

/// `POST …/nodes/{node}/reboot` (only an idle or running node).
Result<void> reboot_node(BatchClient& client, const std::string& pool, const std::string& node,
                         NodeTaskOption option = NodeTaskOption::Requeue);

/// `POST …/nodes/{node}/reimage`: reinstalls the operating system (only idle or running).
Result<void> reimage_node(BatchClient& client, const std::string& pool, const std::string& node,
                          NodeTaskOption option = NodeTaskOption::Requeue);

/// `POST /pools/{pool}/removenodes`: 1 to 100 nodes (a Usage error otherwise, sending nothing);
/// the pool's targets drop by as many.
Result<void> remove_nodes(BatchClient& client, const std::string& pool,
                          const std::vector<std::string>& nodes,
                          NodeTaskOption option = NodeTaskOption::Requeue);

/// `POST …/nodes/{node}/disablescheduling`: the node takes no new task. `RetainedData` is a
/// Usage error (the service has no such option here).
Result<void> disable_scheduling(BatchClient& client, const std::string& pool,
                                const std::string& node,
                                NodeTaskOption option = NodeTaskOption::Requeue);

/// `POST …/nodes/{node}/enablescheduling`.
Result<void> enable_scheduling(BatchClient& client, const std::string& pool,
                               const std::string& node);

/// Where to SSH (or RDP) into a node.
struct RemoteLogin {
  std::string ip;
  int port = 0;
};

/// `GET …/nodes/{node}/remoteloginsettings`.
Result<RemoteLogin> remote_login_settings(BatchClient& client, const std::string& pool,
                                          const std::string& node);

// ---- Jobs ------------------------------------------------------------------------------------

/// `user@host` of this process (getpwuid and gethostname), `unknown` for a part it cannot read.
std::string submitter_identity();

/// `body` with metadata `submittedBy` = `who` added. Other metadata is kept, and a
/// `submittedBy` already there is kept as the caller wrote it (never a second entry). A Usage
/// error when `body` is not an object or its `metadata` is not an array.
Result<nlohmann::json> with_submitted_by(nlohmann::json body, const std::string& who);

/// `POST /jobs` with `body` (wire names) plus `submittedBy` metadata (see with_submitted_by). A
/// Usage error, sending nothing, when the body is not an object with a string `id`.
Result<void> create_job(BatchClient& client, nlohmann::json body);

/// `POST /jobs/{job}/disable`: no new task starts; running ones are handled per `option`.
Result<void> disable_job(BatchClient& client, const std::string& job, DisableJobOption option);

/// `POST /jobs/{job}/enable`.
Result<void> enable_job(BatchClient& client, const std::string& job);

/// `POST /jobs/{job}/terminate` with an optional reason (empty: the service's `UserTerminate`).
Result<void> terminate_job(BatchClient& client, const std::string& job,
                           const std::string& reason = "");

/// `DELETE /jobs/{job}`: the job turns `deleting`, its tasks and their files go with it.
Result<void> delete_job(BatchClient& client, const std::string& job);

// ---- Tasks -----------------------------------------------------------------------------------

/// `POST /jobs/{job}/tasks/{task}/terminate`.
Result<void> terminate_task(BatchClient& client, const std::string& job, const std::string& task);

/// `POST /jobs/{job}/tasks/{task}/reactivate`: a failed task runs again (retry count reset).
Result<void> reactivate_task(BatchClient& client, const std::string& job, const std::string& task);

/// `DELETE /jobs/{job}/tasks/{task}`.
Result<void> delete_task(BatchClient& client, const std::string& job, const std::string& task);

/// The most tasks one addtaskcollection request may carry.
inline constexpr std::size_t kTaskCollectionLimit = 100;
/// The most bytes of tasks one addtaskcollection request carries: the service refuses a body
/// over 1 MiB (RequestBodyTooLarge), which a hundred tasks with many resourceFiles can reach.
inline constexpr std::size_t kTaskCollectionBytes = 1'000'000;

/// What add_tasks did.
struct AddTasksResult {
  int added = 0;        ///< tasks the service accepted
  int collections = 0;  ///< collections (of at most 100) the tasks were split into
};

/// How one addtaskcollection answer splits (entries come in any order).
struct TaskAddOutcome {
  int added = 0;                   ///< `success`, or `TaskExists` when the collection was retried
  std::vector<std::string> retry;  ///< ids with a server-side error (busy, 5xx): send again
  std::string retry_reason;        ///< the first of those errors: `task T: Code: message`
  std::optional<Error> error;      ///< the first other error: `task T: Code: message`
};

/// Classifies one answer. `retried`: the collection was sent more than once, so a `TaskExists`
/// is this caller's own earlier attempt that landed (task ids are the caller's).
TaskAddOutcome classify_task_adds(const std::vector<TaskAddResult>& results, bool retried);

/// Adds tasks to `job` through `POST /jobs/{job}/addtaskcollection`, at most 100 per request.
/// Retry-safe: a collection is re-sent whole after a lost answer (its task ids are fixed, so a
/// `TaskExists` then counts as success), and only the tasks with a per-task server error are
/// sent again. Any other per-task error stops here, naming the task id and code; collections
/// already accepted stay. A task without a string `id` is a Usage error before anything is sent.
Result<AddTasksResult> add_tasks(BatchClient& client, const std::string& job,
                                 const std::vector<nlohmann::json>& tasks);

}  // namespace trainyard::azure
