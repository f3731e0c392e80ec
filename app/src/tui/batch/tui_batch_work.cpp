// Node, job and task actions on a Batch account, from their panes.
#include <fmt/format.h>

#include "tui_batch.hpp"

namespace trainyard {
namespace {

void node_change(AppContext& ctx, TuiState& st, const std::string& verb, const std::string& node,
                 BatchAction action) {
  confirm_then(ctx, st, verb + " node",
               fmt::format("{} {}? Tasks running there are requeued.", verb, node),
               std::move(action));
}

void toggle_scheduling(AppContext& ctx, TuiState& st, const std::string& node) {
  queue_action(ctx, st, act::toggle_scheduling(st.top().pool, node));
}

FormChange job_change(AppContext& ctx, const nlohmann::json& body) {
  return form_change(ctx, act::create_job(body));
}

nlohmann::json job_request(const Form& form) {
  return {{"id", form.value("Id")}, {"poolInfo", {{"poolId", form.value("Pool")}}}};
}

void open_job_form(AppContext& ctx, TuiState& st) {
  if (!account_writable(ctx, st)) return;
  Form f;
  f.title = "Create a job";
  f.add("Id", "", "job id", id_field).sets("id");
  std::string first_pool;
  if (auto pools = ctx.store->pools(st.top().account); pools && !pools->empty())
    first_pool = pools->front().id;
  f.add("Pool", first_pool, "pool id", id_field).sets("poolInfo.poolId");
  BatchForm spec;
  spec.change = [&ctx](const Form& form) { return job_change(ctx, job_request(form)); };
  spec.json_name = "job.json";
  spec.to_json = job_request;
  spec.json_change = [&ctx](const nlohmann::json& body) -> Result<FormChange> {
    TY_TRY(act::request_id(body, "job"));
    return job_change(ctx, body);
  };
  open_batch_form(ctx, st, std::move(f), std::move(spec));
}

FormChange task_change(AppContext& ctx, const std::string& job, const nlohmann::json& task) {
  return form_change(ctx, act::add_tasks(job, {task}));
}

nlohmann::json task_request(const Form& form) {
  nlohmann::json task{{"id", form.value("Id")}, {"commandLine", form.value("Command")}};
  if (auto slots = whole_number(form.value("Slots")); slots && *slots > 1)
    task["requiredSlots"] = *slots;
  return task;
}

void open_task_form(AppContext& ctx, TuiState& st, const std::string& job) {
  if (!account_writable(ctx, st)) return;
  Form f;
  f.title = "Add a task to " + job;
  f.add("Id", "", "task id", id_field).sets("id");
  f.add("Command", "", "command line (run by /bin/sh -c on Linux nodes)", required_field)
      .sets("commandLine");
  f.add("Slots", "1", "task slots it takes", count_field).sets("requiredSlots");
  BatchForm spec;
  spec.change = [&ctx, job](const Form& form) { return task_change(ctx, job, task_request(form)); };
  spec.json_name = "task.json";
  spec.to_json = task_request;
  spec.json_change = [&ctx, job](const nlohmann::json& task) -> Result<FormChange> {
    TY_TRY(act::check_task(task));
    return task_change(ctx, job, task);
  };
  open_batch_form(ctx, st, std::move(f), std::move(spec));
}

}  // namespace

void node_action(AppContext& ctx, TuiState& st, Action a) {
  auto node = selected_key(st);
  if (!node) return set_status(st, "no node selected");
  const std::string pool = st.top().pool, id = *node;
  switch (a) {
    case Action::Reboot:
      return node_change(ctx, st, "Reboot", id, act::reboot_node(pool, id));
    case Action::Reimage:
      return node_change(ctx, st, "Reimage", id, act::reimage_node(pool, id));
    case Action::Delete:
      return node_change(ctx, st, "Remove", id, act::remove_nodes(pool, {id}));
    case Action::Scheduling:
      if (account_writable(ctx, st)) toggle_scheduling(ctx, st, id);
      return;
    case Action::RemoteLogin:
      return open_connect_form(ctx, st, pool, id);
    default:
      return;
  }
}

void job_action(AppContext& ctx, TuiState& st, Action a) {
  if (a == Action::Create) return open_job_form(ctx, st);
  auto job = selected_key(st);
  if (!job) return set_status(st, "no job selected");
  const std::string id = *job;
  switch (a) {
    case Action::Terminate:
      return confirm_then(ctx, st, "Terminate job",
                          "Terminate " + id + "? Its running tasks are stopped.",
                          act::terminate_job(id));
    case Action::Delete:
      return confirm_then(ctx, st, "Delete job",
                          "Delete " + id + " with all its tasks and their files?",
                          act::delete_job(id));
    case Action::Scheduling:
      return queue_action(ctx, st, act::toggle_job(id));
    default:
      return;
  }
}

void task_action(AppContext& ctx, TuiState& st, Action a) {
  if (a == Action::RunForm) {
    auto job = focused_pane(st).selected_job(st);
    if (!job || job->empty()) return set_status(st, "no job selected");
    return open_task_form(ctx, st, *job);
  }
  auto task = focused_pane(st).selected_task(st);
  if (!task || task->empty()) return set_status(st, "no task selected");
  const std::string job = st.top().job, id = *task;
  switch (a) {
    case Action::Stop:
      return confirm_then(ctx, st, "Terminate task", "Terminate " + job + "/" + id + "?",
                          act::terminate_task(job, id));
    case Action::Remove:
      return confirm_then(ctx, st, "Delete task",
                          "Delete " + job + "/" + id + " and its files on the node?",
                          act::delete_task(job, id));
    case Action::Reactivate:
      return queue_action(ctx, st, act::reactivate_task(job, id));
    default:
      return;
  }
}

}  // namespace trainyard
