// Internal: one Batch action as the CLI subcommand and the TUI key both run it: the request, the
// refresh of what it changed into the store, and the text of its outcome. The CLI runs it in the
// foreground; the TUI queues it on the account's CommandRunner (never on the UI thread).
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include "azure/batch_client.hpp"
#include "azure/pool_spec.hpp"

#include "azure/batch_actions.hpp"
#include "core/result.hpp"
#include "core/time.hpp"
#include "store/store.hpp"
#include "sync/command_runner.hpp"

namespace trainyard {

/// Whether an action changes the account (refused when read-only) or only reads it.
enum class ActionKind { Change, Read };

/// What an action runs with: the account's client, a store connection of the caller's thread,
/// and the clock that dates what it judges (an image's end of support).
struct ActionEnv {
  azure::BatchClient& client;
  Store& store;
  const Clock& clock;
};

/// What a finished action says: one line (the CLI's stdout, the TUI's status bar), and warnings
/// (the CLI's stderr; after the line in the TUI): a refresh of the cache that failed, an image
/// past its end of support.
struct ActionOutcome {
  std::string done;
  std::vector<std::string> warnings;
};

/// One Batch action, ready to run.
struct BatchAction {
  std::string what;  ///< names it in a failure and while it runs: `resize pool gpu`
  ActionKind kind = ActionKind::Change;
  std::function<Result<ActionOutcome>(ActionEnv&)> run;
};

/// The outcome as the TUI's status bar shows it: the line, then each warning after a `;`.
std::string status_text(const ActionOutcome& o);

/// The action as a CommandRunner command; `clock` must outlive it.
BatchCommand as_command(BatchAction action, const Clock& clock);

/// `done` when `change` worked, then `refresh` (run after it: arguments are evaluated in no set
/// order), whose failure is a warning: the action itself succeeded and the next poll mends it.
Result<ActionOutcome> changed(const Result<void>& change,
                              const std::function<Result<void>()>& refresh, std::string done,
                              const std::string& refreshed);

/// Each Batch action: pools (pool_actions.cpp).
namespace act {

/// Creates the pool `body` describes (Batch wire JSON). A marketplace image's empty
/// nodeAgentSKUId is filled from supportedimages; an image past its end of support, or not
/// listed there, is a warning.
BatchAction create_pool(nlohmann::json body);
/// The body of the pool `spec` describes (a Usage error when a field is missing or wrong); a
/// marketplace image's node agent SKU may be left empty, for create_pool to fill.
Result<nlohmann::json> pool_request(azure::PoolSpec spec);
BatchAction resize_pool(std::string pool, std::optional<int> dedicated, std::optional<int> spot,
                        std::optional<Duration> timeout = std::nullopt);
BatchAction stop_resize_pool(std::string pool);
/// Enables autoscale, then evaluates the formula once to say what it will do.
BatchAction enable_autoscale(std::string pool, std::string formula,
                             std::optional<Duration> interval);
BatchAction disable_autoscale(std::string pool);
/// Evaluates a formula without enabling it (a read); the evaluation lands in `*out`.
BatchAction evaluate_autoscale(std::string pool, std::string formula,
                               std::shared_ptr<azure::AutoScaleEvaluation> out);
BatchAction delete_pool(std::string pool);

/// A pool, job or task request's `id`, checked before anything is sent: `/id: a pool id (1-64
/// letters, digits, - and _) is needed`.
Result<std::string> request_id(const nlohmann::json& request, const char* what);

/// Nodes (node_actions.cpp). Each acts on one node; `option` says what becomes of its running
/// tasks.
BatchAction reboot_node(std::string pool, std::string node,
                        azure::NodeTaskOption option = azure::NodeTaskOption::Requeue);
BatchAction reimage_node(std::string pool, std::string node,
                         azure::NodeTaskOption option = azure::NodeTaskOption::Requeue);
/// Removes nodes from their pool (its targets drop); refreshes the pool and each node.
BatchAction remove_nodes(std::string pool, std::vector<std::string> nodes,
                         azure::NodeTaskOption option = azure::NodeTaskOption::Requeue);
/// Enables or disables a node's scheduling.
BatchAction set_scheduling(std::string pool, std::string node, bool enable,
                           azure::NodeTaskOption option = azure::NodeTaskOption::Requeue);
/// Disables a node's scheduling when the service has it enabled, else enables it.
BatchAction toggle_scheduling(std::string pool, std::string node);
/// Where to SSH into a node (a read).
BatchAction remote_login(std::string pool, std::string node);

/// Jobs (job_actions.cpp). `body` is a job as Batch wire JSON.
BatchAction create_job(nlohmann::json body);
BatchAction terminate_job(std::string job, std::string reason = "");
BatchAction delete_job(std::string job);
BatchAction enable_job(std::string job);
BatchAction disable_job(std::string job,
                        azure::DisableJobOption option = azure::DisableJobOption::Requeue);
/// Enables a job the service has disabled (or is disabling), else disables it.
BatchAction toggle_job(std::string job);

/// Tasks (task_actions.cpp). `tasks` are Batch wire JSON, each checked by check_task.
BatchAction add_tasks(std::string job, std::vector<nlohmann::json> tasks);
BatchAction terminate_task(std::string job, std::string task);
BatchAction reactivate_task(std::string job, std::string task);
BatchAction delete_task(std::string job, std::string task);
/// A task request checked before anything is sent: its id, and a command line.
Result<void> check_task(const nlohmann::json& task);

}  // namespace act
}  // namespace trainyard
