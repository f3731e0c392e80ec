// Node, job and task actions on a Batch account, from their panes.
#include <fmt/format.h>

#include "azure/batch_actions.hpp"
#include "tui_batch.hpp"

namespace trainyard {
namespace {

using Change = std::function<Result<void>(azure::BatchClient&)>;

void node_change(AppContext& ctx, TuiState& st, const std::string& verb, const std::string& node,
                 Change fn) {
  const std::string pool = st.top().pool;
  confirm_then(
      ctx, st, verb + " node", fmt::format("{} {}? Tasks running there are requeued.", verb, node),
      verb + " " + node, [pool, node, fn, verb](azure::BatchClient& c, Store& s) {
        return changed(
            fn(c), [&] { return cache_node(s, c, pool, node); }, verb + " " + node + " sent");
      });
}

void toggle_scheduling(AppContext& ctx, TuiState& st, const std::string& node) {
  const std::string pool = st.top().pool;
  auto nodes = ctx.store->nodes(st.top().account, pool);
  bool enabled = true;
  if (nodes)
    for (const auto& n : *nodes)
      if (n.id == node) enabled = n.scheduling_state == SchedulingState::Enabled;
  run_batch(ctx, st, (enabled ? "disable" : "enable") + std::string(" scheduling on ") + node,
            [pool, node, enabled](azure::BatchClient& c, Store& s) {
              auto r = enabled ? azure::disable_scheduling(c, pool, node)
                               : azure::enable_scheduling(c, pool, node);
              return changed(
                  r, [&] { return cache_node(s, c, pool, node); },
                  fmt::format("{}: scheduling {}", node,
                              enabled ? "disabled (running tasks requeued)" : "enabled"));
            });
}

// An edited request's id, checked before anything is sent.
Result<std::string> request_id(const nlohmann::json& request, const char* what) {
  const auto& id = request.value("id", nlohmann::json());
  if (!id.is_string() || !is_valid_batch_id(id.get<std::string>()))
    return make_error(ErrorKind::Usage,
                      fmt::format("/id: a {} id (1-64 letters, digits, - and _) is needed", what));
  return id.get<std::string>();
}

FormChange job_change(const nlohmann::json& body) {
  std::string id = body.value("id", "");
  return {"create job " + id, [id, body](azure::BatchClient& c, Store& s) {
            return changed(
                azure::create_job(c, body), [&] { return cache_job(s, c, id); },
                "created job " + id);
          }};
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
  spec.change = [](const Form& form) { return job_change(job_request(form)); };
  spec.json_name = "job.json";
  spec.to_json = job_request;
  spec.json_change = [](const nlohmann::json& body) -> Result<FormChange> {
    TY_TRY(request_id(body, "job"));
    return job_change(body);
  };
  open_batch_form(ctx, st, std::move(f), std::move(spec));
}

FormChange task_change(const std::string& job, const nlohmann::json& task) {
  std::string id = task.value("id", "");
  return {"add task " + id, [job, id, task](azure::BatchClient& c, Store& s) {
            auto added = azure::add_tasks(c, job, {task});
            return changed(
                added ? Result<void>() : Result<void>(added.error()),
                [&] { return recache_task(s, c, job, id); }, "added " + job + "/" + id);
          }};
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
  spec.change = [job](const Form& form) { return task_change(job, task_request(form)); };
  spec.json_name = "task.json";
  spec.to_json = task_request;
  spec.json_change = [job](const nlohmann::json& task) -> Result<FormChange> {
    TY_TRY(request_id(task, "task"));
    if (!task.value("commandLine", nlohmann::json()).is_string())
      return make_error(ErrorKind::Usage, "/commandLine: a command line is needed");
    return task_change(job, task);
  };
  open_batch_form(ctx, st, std::move(f), std::move(spec));
}

}  // namespace

void node_action(AppContext& ctx, TuiState& st, Action a) {
  auto node = selected_row(st);
  if (!node) return set_status(st, "no node selected");
  const std::string pool = st.top().pool, id = *node;
  switch (a) {
    case Action::Reboot:
      return node_change(ctx, st, "Reboot", id, [pool, id](azure::BatchClient& c) {
        return azure::reboot_node(c, pool, id);
      });
    case Action::Reimage:
      return node_change(ctx, st, "Reimage", id, [pool, id](azure::BatchClient& c) {
        return azure::reimage_node(c, pool, id);
      });
    case Action::Delete:
      return node_change(ctx, st, "Remove", id, [pool, id](azure::BatchClient& c) {
        return azure::remove_nodes(c, pool, {id});
      });
    case Action::Scheduling:
      if (account_writable(ctx, st)) toggle_scheduling(ctx, st, id);
      return;
    case Action::RemoteLogin:
      // A read: allowed on a read-only account too.
      return run_batch(
          ctx, st, "remote login of " + id,
          [pool, id](azure::BatchClient& c, Store&) -> Result<std::string> {
            auto r = azure::remote_login_settings(c, pool, id);
            if (!r) return r.error();
            return fmt::format("{}: ssh -p {} <user>@{}", id, r->port, r->ip);
          },
          false);
    default:
      return;
  }
}

void job_action(AppContext& ctx, TuiState& st, Action a) {
  if (a == Action::Create) return open_job_form(ctx, st);
  auto job = selected_row(st);
  if (!job) return set_status(st, "no job selected");
  const std::string id = *job;
  switch (a) {
    case Action::Terminate:
      return confirm_then(ctx, st, "Terminate job",
                          "Terminate " + id + "? Its running tasks are stopped.",
                          "terminate job " + id, [id](azure::BatchClient& c, Store& s) {
                            return changed(
                                azure::terminate_job(c, id), [&] { return cache_job(s, c, id); },
                                "terminating job " + id);
                          });
    case Action::Delete:
      return confirm_then(ctx, st, "Delete job",
                          "Delete " + id + " with all its tasks and their files?",
                          "delete job " + id, [id](azure::BatchClient& c, Store& s) {
                            return changed(
                                azure::delete_job(c, id), [&] { return cache_job(s, c, id); },
                                "deleting job " + id);
                          });
    case Action::Scheduling: {
      auto cached = ctx.store->job(st.top().account, id);
      bool disabled = cached && *cached && (*cached)->state == JobState::Disabled;
      return run_batch(ctx, st, (disabled ? "enable job " : "disable job ") + id,
                       [id, disabled](azure::BatchClient& c, Store& s) {
                         auto r = disabled
                                      ? azure::enable_job(c, id)
                                      : azure::disable_job(c, id, azure::DisableJobOption::Requeue);
                         return changed(
                             r, [&] { return cache_job(s, c, id); },
                             id + (disabled ? " enabled" : " disabled (tasks requeued)"));
                       });
    }
    default:
      return;
  }
}

void task_action(AppContext& ctx, TuiState& st, Action a) {
  if (a == Action::RunForm) {
    auto job = st.top().view == View::Jobs ? selected_row(st) : st.top().job;
    if (!job || job->empty()) return set_status(st, "no job selected");
    return open_task_form(ctx, st, *job);
  }
  auto task = selected_row(st);
  if (st.top().view != View::Tasks) task = st.top().task;
  if (!task || task->empty()) return set_status(st, "no task selected");
  const std::string job = st.top().job, id = *task;
  switch (a) {
    case Action::Stop:
      return confirm_then(ctx, st, "Terminate task", "Terminate " + job + "/" + id + "?",
                          "terminate " + id, [job, id](azure::BatchClient& c, Store& s) {
                            return changed(
                                azure::terminate_task(c, job, id),
                                [&] { return recache_task(s, c, job, id); }, "terminated " + id);
                          });
    case Action::Remove:
      return confirm_then(ctx, st, "Delete task",
                          "Delete " + job + "/" + id + " and its files on the node?",
                          "delete " + id, [job, id](azure::BatchClient& c, Store& s) {
                            return changed(
                                azure::delete_task(c, job, id),
                                [&] { return recache_task(s, c, job, id); }, "deleted " + id);
                          });
    case Action::Reactivate:
      return run_batch(ctx, st, "retry " + id, [job, id](azure::BatchClient& c, Store& s) {
        return changed(
            azure::reactivate_task(c, job, id), [&] { return recache_task(s, c, job, id); },
            id + " reactivated: it runs again");
      });
    default:
      return;
  }
}

}  // namespace trainyard
