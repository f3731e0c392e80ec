// `trainyard task add|terminate|reactivate|delete --account A …`: Batch task actions, and
// `task reactivate` of a finished local run.
#include <memory>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "commands.hpp"
#include "local/engine.hpp"
#include "local/task_environment.hpp"
#include "local_action.hpp"

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

// Each task checked as the TUI's ^O checks one, its place a JSON pointer into the file.
Result<std::vector<json>> checked_tasks(const std::string& path, const json& doc) {
  const bool many = doc.is_array();
  std::vector<json> tasks =
      many ? std::vector<json>(doc.begin(), doc.end()) : std::vector<json>{doc};
  for (size_t i = 0; i < tasks.size(); ++i) {
    if (auto ok = act::check_task(tasks[i]); !ok)
      return make_error(
          ErrorKind::Usage,
          fmt::format("{}: {}{}", path, many ? "/" + std::to_string(i) : "", ok.error().message));
  }
  return tasks;
}

Result<std::vector<json>> tasks_from_file(const std::string& path) {
  auto doc = read_json_file(path);
  if (!doc) return doc.error();
  if (doc->is_object() || (doc->is_array() && !doc->empty())) return checked_tasks(path, *doc);
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
  return run_catalogued(st, f.account, "task add", act::add_tasks(f.job, *tasks));
}

using OnTask = BatchAction (*)(std::string job, std::string task);

// An action on JOB/TASK.
int on_task(const CliState& st, const TaskFlags& f, const char* command, OnTask action) {
  auto ref = split_task_ref(f.ref);
  if (!ref) return report_failure(command, ref.error());
  return run_catalogued(st, f.account, command, action(ref->first, ref->second));
}

int task_terminate(const CliState& st, const TaskFlags& f) {
  return on_task(st, f, "task terminate", act::terminate_task);
}

// On the local account: the finished run queued again as its next attempt.
int reactivate_local(AppContext& ctx, const std::string& ref_text) {
  auto ref = split_task_ref(ref_text);
  if (!ref) return report_failure("task reactivate", ref.error());
  LocalEngine engine(*ctx.store, ctx.engine, ctx.clock);
  auto done = act::reactivate_run(ref->first, ref->second, current_environment()).run(engine);
  if (!done) return report_failure("task reactivate", done.error());
  return print_done(*done);
}

int task_reactivate(const CliState& st, const TaskFlags& f) {
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  if (chosen_account(f.account, (*ctx)->settings) == kLocalAccount)
    return reactivate_local(**ctx, f.ref);
  ctx->reset();  // the Batch action opens its own
  return on_task(st, f, "task reactivate", act::reactivate_task);
}

int task_delete(const CliState& st, const TaskFlags& f) {
  return on_task(st, f, "task delete", act::delete_task);
}

void leaf(CLI::App* parent, CliState& st, const std::shared_ptr<TaskFlags>& f, const char* name,
          const char* help, FlagsRunner<TaskFlags> run) {
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
