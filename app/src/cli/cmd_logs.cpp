// `trainyard logs JOB/TASK [-f] [--stderr] [--raw]`; Batch accounts (`--account A`, `--node`,
// `--offline`) go to cmd_logs_remote.cpp.
#include <fcntl.h>
#include <sys/stat.h>
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

// An open log file and how far it was printed.
struct OpenLog {
  int fd = -1;
  off_t offset = 0;
};

bool same_file(const struct stat& a, const struct stat& b) {
  return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

// Whether `path` now names another file than `fd` (a retry moved the old one aside).
bool replaced(const std::string& path, int fd) {
  struct stat by_path {
  }, by_fd{};
  return ::stat(path.c_str(), &by_path) == 0 && ::fstat(fd, &by_fd) == 0 &&
         !same_file(by_path, by_fd);
}

// The attempt whose kept file `fd` is, or -1 (checked up to the run's current attempt).
int attempt_of(const std::string& path, int fd, int current) {
  struct stat by_fd {};
  if (::fstat(fd, &by_fd) != 0) return -1;
  for (int n = 0; n <= current; ++n) {
    struct stat kept {};
    if (::stat(attempt_log_path(path, n).c_str(), &kept) == 0 && same_file(kept, by_fd)) return n;
  }
  return -1;
}

// The run's current attempt (retries and reactivations both start a new one).
int current_attempt(AppContext& ctx, const std::string& job, const std::string& id) {
  auto run = ctx.store->local_run(job, id);
  return run && run->has_value() ? (*run)->attempt : 0;
}

// Prints a whole kept file as one attempt's log.
void print_file(const std::string& path, LogPrinter& out) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return;
  pump(fd, 0, out);
  ::close(fd);
  out.end_file();
}

// After a retry: the rest of the attempt being printed, every attempt kept since (several
// retries may come between two looks), then the new file from its start.
OpenLog next_attempt(const std::string& path, OpenLog log, LogPrinter& out, AppContext& ctx,
                     const std::string& job, const std::string& id) {
  pump(log.fd, log.offset, out);
  out.end_file();
  const int current = current_attempt(ctx, job, id);
  const int was = attempt_of(path, log.fd, current);
  ::close(log.fd);
  for (int n = was + 1; was >= 0 && n <= current; ++n) print_file(attempt_log_path(path, n), out);
  OpenLog next{::open(path.c_str(), O_RDONLY | O_CLOEXEC), 0};
  if (next.fd >= 0) next.offset = pump(next.fd, 0, out);
  return next;
}

// Prints the log and, with `follow`, what is added until the task completes, across retries.
void print_log(const std::string& path, OpenLog log, bool follow, LogPrinter& out, AppContext& ctx,
               const std::string& job, const std::string& id) {
  log.offset = pump(log.fd, 0, out);
  for (bool done = !follow; log.fd >= 0;) {
    if (replaced(path, log.fd)) {
      log = next_attempt(path, log, out, ctx, job, id);
      continue;
    }
    if (done) break;
    done = task_done(ctx, job, id);  // one more look after the end: the last attempt's file
    if (!done) std::this_thread::sleep_for(200ms);
    log.offset = pump(log.fd, log.offset, out);
  }
  if (log.fd >= 0) ::close(log.fd);
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
  print_log(path, {fd, 0}, o.follow, printer, **ctx, ref->first, ref->second);
  printer.finish();
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
