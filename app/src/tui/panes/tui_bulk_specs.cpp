// The actions that the Tasks, Jobs, Nodes and Pools panes run over marked rows.
#include "bulk_action.hpp"
#include "local/task_environment.hpp"
#include "tui_bulk_spec.hpp"

namespace trainyard {
namespace {

using F = const Frame&;
using K = const std::string&;
using A = Action;

BulkSpec batch_spec(Action a, const char* verb, const char* noun, const char* note,
                    std::function<BatchAction(const Frame&, const std::string&)> one) {
  return {a, false, verb, noun, note, {}, std::move(one)};
}

std::vector<BulkSpec> local_task_specs() {
  return {
      {A::Stop, true, "Stop", "run", "Their process groups get SIGTERM, then SIGKILL after 10 s.",
       [](F f, K k) { return act::stop_run(f.job, k); }},
      {A::Remove, true, "Remove", "run", "Their files go too; running ones stay.",
       [](F f, K k) { return act::remove_run(f.job, k); }},
      {A::Reactivate, true, "Retry", "run",
       "Each finished one is queued again as its next attempt.",
       [](F f, K k) { return act::reactivate_run(f.job, k, current_environment()); }},
  };
}

std::vector<BulkSpec> batch_task_specs() {
  return {
      batch_spec(A::Stop, "Terminate", "task", "",
                 [](F f, K k) { return act::terminate_task(f.job, k); }),
      batch_spec(A::Remove, "Delete", "task", "Their files on the nodes go too.",
                 [](F f, K k) { return act::delete_task(f.job, k); }),
      batch_spec(A::Reactivate, "Retry", "task", "",
                 [](F f, K k) { return act::reactivate_task(f.job, k); }),
  };
}

std::vector<BulkSpec> batch_job_specs() {
  return {
      batch_spec(A::Terminate, "Terminate", "job", "Their running tasks are stopped.",
                 [](F, K k) { return act::terminate_job(k); }),
      batch_spec(A::Delete, "Delete", "job", "With all their tasks and their files.",
                 [](F, K k) { return act::delete_job(k); }),
  };
}

std::vector<BulkSpec> batch_node_specs() {
  std::vector<BulkSpec> s{
      batch_spec(A::Reboot, "Reboot", "node", "Tasks running there are requeued.",
                 [](F f, K k) { return act::reboot_node(f.pool, k); }),
      batch_spec(A::Reimage, "Reimage", "node", "Tasks running there are requeued.",
                 [](F f, K k) { return act::reimage_node(f.pool, k); }),
  };
  BulkSpec remove{A::Delete, false, "Remove", "node",
                  "Tasks running there are requeued; the pool's target drops."};
  remove.all_at_once = [](F f, const std::vector<std::string>& keys) {
    return act::remove_nodes(f.pool, keys);
  };
  s.push_back(std::move(remove));
  return s;
}

std::vector<BulkSpec> batch_pool_specs() {
  std::vector<BulkSpec> s{
      batch_spec(A::StopResize, "Stop resizing", "pool", "",
                 [](F, K k) { return act::stop_resize_pool(k); }),
      batch_spec(A::DisableAutoscale, "Disable autoscale of", "pool", "",
                 [](F, K k) { return act::disable_autoscale(k); }),
  };
  BulkSpec pool_delete{A::Delete, false, "Delete", "pool", ""};
  pool_delete.refusal = "pools are deleted one at a time (each asks for its id): unmark them first";
  s.push_back(std::move(pool_delete));
  return s;
}

const std::vector<BulkSpec>& none() {
  static const std::vector<BulkSpec> empty;
  return empty;
}

}  // namespace

const std::vector<BulkSpec>& task_bulk_specs(bool local) {
  static const std::vector<BulkSpec> local_table = local_task_specs(),
                                     batch_table = batch_task_specs();
  return local ? local_table : batch_table;
}

const std::vector<BulkSpec>& job_bulk_specs(bool local) {
  static const std::vector<BulkSpec> table = batch_job_specs();
  return local ? none() : table;
}

const std::vector<BulkSpec>& node_bulk_specs(bool local) {
  static const std::vector<BulkSpec> table = batch_node_specs();
  return local ? none() : table;
}

const std::vector<BulkSpec>& pool_bulk_specs(bool local) {
  static const std::vector<BulkSpec> table = batch_pool_specs();
  return local ? none() : table;
}

}  // namespace trainyard
