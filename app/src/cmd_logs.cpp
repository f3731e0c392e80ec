// `trainyard logs JOB/TASK [-f] [--stderr] [--raw]`; Batch accounts (`--account A`, `--node`,
// `--offline`) go to cmd_logs_remote.cpp.
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <thread>

#include <fmt/format.h>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "cmd_logs_remote.hpp"
#include "commands.hpp"
#include "local/task_environment.hpp"
#include "log_printer.hpp"

namespace trainyard {
namespace {

using namespace std::chrono_literals;

struct LogsOptions {
  std::string account, ref, node;
  bool follow = false, stderr_stream = false, raw = false, offline = false;
};

bool batch_account(const LogsOptions& o) {
  return !o.account.empty() && o.account != kLocalAccount;
}

RemoteLogsRequest remote_request(const LogsOptions& o) {
  return RemoteLogsRequest{o.account, o.ref, o.node, o.follow, o.stderr_stream, o.raw, o.offline};
}

// Copies what the file has past `offset`; returns the new offset.
off_t pump(int fd, off_t offset, LogPrinter& out) {
  char buf[1 << 16];
  for (;;) {
    auto n = pread(fd, buf, sizeof buf, offset);
    if (n <= 0) return offset;
    out.write(std::string_view(buf, static_cast<size_t>(n)));
    offset += n;
  }
}

bool task_done(AppContext& ctx, const std::string& job, const std::string& id) {
  auto t = ctx.store->task(kLocalAccount, job, id);
  return !t || !t->has_value() || (*t)->state == TaskState::Completed;
}

int open_log(const std::string& path, bool wait_for_it, AppContext& ctx, const std::string& job,
             const std::string& id) {
  for (;;) {
    int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd >= 0 || !wait_for_it || task_done(ctx, job, id)) return fd;
    std::this_thread::sleep_for(200ms);
  }
}

int logs_command(const CliState& st, const LogsOptions& o) {
  if (batch_account(o)) return remote_logs_command(st, remote_request(o));
  if (!o.node.empty())
    return report(make_error(ErrorKind::Usage, "--node needs a Batch account (--account A)"));
  if (o.ref.empty()) return report(make_error(ErrorKind::Usage, "logs: expected JOB/TASK"));
  if (auto a = check_account(o.account, st.data_dir); !a) return report(a.error());
  auto ref = split_task_ref(o.ref);
  if (!ref) return report(ref.error());
  auto ctx = open_context(st.data_dir);
  if (!ctx) return report(ctx.error());
  auto t = (*ctx)->store->task(kLocalAccount, ref->first, ref->second);
  if (!t) return report(t.error());
  if (!t->has_value())
    return report(
        make_error(ErrorKind::NotFound, fmt::format("no task {} in account local", o.ref)));
  auto paths = run_paths((*ctx)->data_dir, ref->first, ref->second);
  const auto& path = o.stderr_stream ? paths.stderr_txt : paths.stdout_txt;
  int fd = open_log(path, o.follow, **ctx, ref->first, ref->second);
  if (fd < 0) return kExitOk;  // the task never wrote to it
  LogPrinter printer(stdout, o.raw);
  off_t offset = pump(fd, 0, printer);
  while (o.follow && !task_done(**ctx, ref->first, ref->second)) {
    std::this_thread::sleep_for(200ms);
    offset = pump(fd, offset, printer);
  }
  pump(fd, offset, printer);
  printer.finish();
  ::close(fd);
  return kExitOk;
}

}  // namespace

void register_logs(CLI::App& app, CliState& st) {
  auto o = std::make_shared<LogsOptions>();
  auto* cmd =
      app.add_subcommand("logs", "Print a task's stdout (or stderr), sanitized unless --raw");
  cmd->add_option("task", o->ref, "JOB/TASK (with --node: the file's path on the node)");
  cmd->add_option("--account", o->account,
                  "Account (default 'local'; a Batch account's files are cached)");
  cmd->add_option("--node", o->node, "POOL/NODE: a file of a Batch node (startup/stderr.txt)");
  cmd->add_flag("-f,--follow", o->follow, "Keep printing until the task completes");
  cmd->add_flag("--stderr", o->stderr_stream, "stderr.txt instead of stdout.txt");
  cmd->add_flag("--raw", o->raw, "The exact bytes, control sequences included");
  cmd->add_flag("--offline", o->offline, "Batch accounts: print the cached copy without reading");
  cmd->callback([&st, o] { st.action = [&st, o] { return logs_command(st, *o); }; });
}

}  // namespace trainyard
