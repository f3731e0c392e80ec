// `trainyard task add|terminate|reactivate|delete --account A …`: Batch task actions, and
// `task reactivate` of a finished local run.
#include <memory>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "commands.hpp"
#include "local/engine.hpp"
#include "local/task_environment.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

struct TaskFlags {
  std::string account, job, ref, json_file, id;
};

// Words after `--` joined as a command line; a word with a space or quote is single-quoted, as
// a shell would need it (Batch runs the line without a shell on Linux unless it starts one).
std::string command_line(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    bool plain = !w.empty() && w.find_first_of(" \t'\"\\$`;&|<>()*?") == std::string::npos;
    if (plain) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

Result<std::vector<json>> tasks_from_file(const std::string& path) {
  auto doc = read_json_file(path);
  if (!doc) return doc.error();
  if (doc->is_object()) return std::vector<json>{*doc};
  if (doc->is_array() && !doc->empty()) return std::vector<json>(doc->begin(), doc->end());
  return make_error(ErrorKind::Usage, path + ": expected a task object or an array of tasks");
}

Result<std::vector<json>> tasks_to_add(const CliState& st, const TaskFlags& f) {
  const bool by_file = !f.json_file.empty();
  const bool by_command = !f.id.empty() || !st.command_words.empty();
  if (by_file == by_command)
    return make_error(ErrorKind::Usage, "task add takes --json FILE, or --id T -- command...");
  if (by_file) return tasks_from_file(f.json_file);
  if (f.id.empty() || st.command_words.empty())
    return make_error(ErrorKind::Usage, "task add needs --id T and a command after --");
  return std::vector<json>{{{"id", f.id}, {"commandLine", command_line(st.command_words)}}};
}

int task_add(const CliState& st, const TaskFlags& f) {
  // The tasks are checked before the account is opened: bad input sends nothing.
  auto tasks = tasks_to_add(st, f);
  if (!tasks) return report_failure("task add", tasks.error());
  azure::AddTasksResult added;
  return run_action(
      st, f.account, {"task add", "add tasks to job " + f.job},
      [&](ActionSession& s) -> Result<void> {
        auto r = azure::add_tasks(*s.client, f.job, *tasks);
        if (!r) return r.error();
        added = *r;
        return {};
      },
      [&](ActionSession& s) {
        if (tasks->size() == 1)
          refresh_task(s, f.job, tasks->front()["id"].get<std::string>());
        else
          refresh_tasks(s, f.job);
        return print_done(fmt::format("added {} task(s) to job {}", added.added, f.job));
      });
}

// An action on JOB/TASK; `forget`: the task is gone afterwards (delete).
int on_task(const CliState& st, const TaskFlags& f, const char* command, const char* verb,
            Result<void> (*act)(azure::BatchClient&, const std::string&, const std::string&),
            bool forget = false) {
  auto ref = split_task_ref(f.ref);
  if (!ref) return report_failure(command, ref.error());
  // Named copies: clang 14 cannot capture structured bindings in lambdas.
  const std::string job = ref->first, task = ref->second;
  return run_action(
      st, f.account, {command, fmt::format("{} task {}", verb, f.ref)},
      [&](ActionSession& s) { return act(*s.client, job, task); },
      [&](ActionSession& s) {
        forget ? forget_task(s, job, task) : refresh_task(s, job, task);
        return print_done(fmt::format("{}: task {}", verb, f.ref));
      });
}

int task_terminate(const CliState& st, const TaskFlags& f) {
  return on_task(st, f, "task terminate", "terminate", azure::terminate_task);
}

// On the local account: the finished run queued again as its next attempt.
int reactivate_local(AppContext& ctx, const std::string& ref_text) {
  auto ref = split_task_ref(ref_text);
  if (!ref) return report_failure("task reactivate", ref.error());
  LocalEngine engine(*ctx.store, ctx.engine, ctx.clock);
  auto attempt = engine.reactivate(ref->first, ref->second, current_environment());
  if (!attempt) return report_failure("task reactivate", attempt.error());
  return print_done(fmt::format("reactivated {}: attempt {} (earlier attempts' logs are kept)",
                                ref_text, *attempt));
}

int task_reactivate(const CliState& st, const TaskFlags& f) {
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  if (chosen_account(f.account, (*ctx)->settings) == kLocalAccount)
    return reactivate_local(**ctx, f.ref);
  ctx->reset();  // the Batch action opens its own
  return on_task(st, f, "task reactivate", "reactivate", azure::reactivate_task);
}

int task_delete(const CliState& st, const TaskFlags& f) {
  return on_task(st, f, "task delete", "delete", azure::delete_task, true);
}

using Runner = int (*)(const CliState&, const TaskFlags&);

void leaf(CLI::App* parent, CliState& st, const std::shared_ptr<TaskFlags>& f, const char* name,
          const char* help, Runner run) {
  auto* cmd = parent->add_subcommand(name, help);
  add_account_option(cmd, f->account);
  cmd->add_option("task", f->ref, "JOB/TASK")->required();
  cmd->callback([&st, f, run] { st.action = [&st, f, run] { return run(st, *f); }; });
}

}  // namespace

void register_task(CLI::App& app, CliState& st) {
  auto f = std::make_shared<TaskFlags>();
  auto* task = app.add_subcommand(
      "task", "Batch tasks: add, terminate, reactivate, delete; local runs: reactivate");
  task->require_subcommand(1);
  auto* add = task->add_subcommand("add", "Add tasks: JOB --json FILE, or JOB --id T -- command");
  add_account_option(add, f->account);
  add->add_option("job", f->job, "Job id")->required();
  add->add_option("--json", f->json_file, "A task, or an array of tasks, as Batch REST JSON");
  add->add_option("--id", f->id, "Task id (with a command after --)");
  add->callback([&st, f] { st.action = [&st, f] { return task_add(st, *f); }; });
  leaf(task, st, f, "terminate", "End a task", task_terminate);
  leaf(task, st, f, "reactivate",
       "Run a task again: a failed Batch task, or any finished local run as its next attempt",
       task_reactivate);
  leaf(task, st, f, "delete", "Delete a task and its files", task_delete);
}

}  // namespace trainyard
