#include "core/child_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>

#include <fmt/format.h>

extern char** environ;

namespace trainyard {
namespace {

using SteadyClock = std::chrono::steady_clock;

/// A pipe whose ends close themselves; O_CLOEXEC so no other child inherits them.
struct Pipe {
  std::array<int, 2> fd{-1, -1};
  Pipe() {
    if (::pipe2(fd.data(), O_CLOEXEC) != 0) fd = {-1, -1};
  }
  ~Pipe() {
    for (int f : fd) {
      if (f >= 0) ::close(f);
    }
  }
  Pipe(const Pipe&) = delete;
  Pipe& operator=(const Pipe&) = delete;
  bool ok() const { return fd[0] >= 0; }
  void close_end(size_t i) {
    ::close(fd[i]);
    fd[i] = -1;
  }
};

/// posix_spawn's settings: stdin from /dev/null, stdout and stderr into the pipes, a process
/// group of its own (so a kill reaches what it started too), the usual stop signals at their
/// defaults (an ignored one would stay ignored across exec) and none blocked.
class SpawnSetup {
 public:
  SpawnSetup(int out_fd, int err_fd) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawn_file_actions_addopen(&actions_, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions_, out_fd, 1);
    posix_spawn_file_actions_adddup2(&actions_, err_fd, 2);
    posix_spawnattr_init(&attr_);
    sigset_t none, defaults;
    sigemptyset(&none);
    sigemptyset(&defaults);
    for (int sig : {SIGPIPE, SIGINT, SIGTERM, SIGHUP, SIGQUIT}) sigaddset(&defaults, sig);
    posix_spawnattr_setsigmask(&attr_, &none);
    posix_spawnattr_setsigdefault(&attr_, &defaults);
    posix_spawnattr_setpgroup(&attr_, 0);
    posix_spawnattr_setflags(
        &attr_, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  }
  ~SpawnSetup() {
    posix_spawn_file_actions_destroy(&actions_);
    posix_spawnattr_destroy(&attr_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;

  /// Starts the program; an errno value on failure.
  int spawn(pid_t& pid, const CapturedRun& run) {
    auto argv = exec_argv(run.argv);
    auto envp = run.env ? exec_argv(*run.env) : std::vector<char*>{};
    char** env = run.env ? envp.data() : environ;
    bool search = run.argv[0].find('/') == std::string::npos;
    return search ? posix_spawnp(&pid, argv[0], &actions_, &attr_, argv.data(), env)
                  : posix_spawn(&pid, argv[0], &actions_, &attr_, argv.data(), env);
  }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
};

// Appends what is readable on `fd`, keeping at most `cap` bytes; false at its end (or failure).
bool drain(int fd, std::string& into, size_t cap) {
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;
  if (into.size() < cap) into.append(buf, std::min(static_cast<size_t>(n), cap - into.size()));
  return true;
}

// The wait for the next output: to the deadline, or 100 ms when a cancel flag is watched.
int poll_wait_ms(const CapturedRun& run, SteadyClock::time_point now) {
  auto left = std::chrono::duration_cast<std::chrono::milliseconds>(run.deadline - now).count() + 1;
  if (run.cancel) left = std::min<long>(left, 100);
  return static_cast<int>(std::max<long>(left, 0));
}

// Reads both streams until they close; false when the deadline passed or `cancel` was set first.
bool collect(const CapturedRun& run, int out_fd, int err_fd, CapturedOutput& r) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<std::string*, 2> sinks{&r.out, &r.err};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    r.cancelled = run.cancel && run.cancel->load();
    auto now = SteadyClock::now();
    r.timed_out = !r.cancelled && now >= run.deadline;
    if (r.cancelled || r.timed_out) return false;
    if (::poll(fds.data(), fds.size(), poll_wait_ms(run, now)) < 0) {
      if (errno == EINTR) continue;  // revents are stale after a failed poll
      r.timed_out = true;
      return false;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
          !drain(fds[i].fd, *sinks[i], run.output_cap)) {
        fds[i].fd = -1;  // poll ignores negative descriptors
      }
    }
  }
  return true;
}

// Waits for `pid` whatever signals arrive; its wait status, or -1.
int wait_status_of(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return status;
}

}  // namespace

Result<CapturedOutput> run_captured(const CapturedRun& run) {
  if (run.argv.empty()) return make_error(ErrorKind::Usage, "no program to run");
  Pipe out, err;
  if (!out.ok() || (!run.merge_stderr && !err.ok()))
    return make_error(ErrorKind::Io, fmt::format("cannot run {}: no pipe", run.argv[0]));
  pid_t pid = -1;
  int rc = SpawnSetup(out.fd[1], run.merge_stderr ? out.fd[1] : err.fd[1]).spawn(pid, run);
  out.close_end(1);
  if (!run.merge_stderr) err.close_end(1);
  if (rc != 0)
    return make_error(ErrorKind::Io,
                      fmt::format("cannot run {}: {}", run.argv[0], std::strerror(rc)));
  CapturedOutput r;
  if (!collect(run, out.fd[0], run.merge_stderr ? -1 : err.fd[0], r)) {
    ::kill(-pid, SIGKILL);  // the group: a shell or a launcher may have started others
    ::kill(pid, SIGKILL);
  }
  int status = wait_status_of(pid);
  r.exit_status = status < 0 ? 1 : exit_code_of(status);
  r.signal = status >= 0 && WIFSIGNALED(status) ? WTERMSIG(status) : 0;
  return r;
}

Result<int> run_foreground(const std::vector<std::string>& argv,
                           const std::vector<std::string>& env) {
  if (argv.empty()) return make_error(ErrorKind::Usage, "no program to run");
  auto args = exec_argv(argv);
  auto envp = exec_argv(env);
  int failed[2];  // the child writes errno here when exec fails; closes it unwritten otherwise
  if (::pipe2(failed, O_CLOEXEC) != 0)
    return make_error(ErrorKind::Io, "cannot start " + argv[0] + ": pipe failed");
  pid_t pid = ::fork();
  if (pid < 0) return make_error(ErrorKind::Io, "cannot start " + argv[0] + ": fork failed");
  if (pid == 0) {
    ::signal(SIGINT, SIG_DFL);
    ::signal(SIGTERM, SIG_DFL);
    ::execvpe(args[0], args.data(), envp.data());
    int e = errno;
    (void)!::write(failed[1], &e, sizeof e);
    ::_exit(127);
  }
  ::close(failed[1]);
  // Ctrl-C belongs to the child while it runs, not to this process.
  auto old_int = ::signal(SIGINT, SIG_IGN);
  int exec_errno = 0;
  bool exec_failed = ::read(failed[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno;
  ::close(failed[0]);
  int status = wait_status_of(pid);
  ::signal(SIGINT, old_int);
  if (exec_failed)
    return make_error(ErrorKind::Io,
                      fmt::format("cannot run {}: {}", argv[0], std::strerror(exec_errno)));
  if (status < 0) return make_error(ErrorKind::Io, "lost " + argv[0] + ": waitpid failed");
  return exit_code_of(status);
}

bool reaped_by(pid_t pid, std::chrono::steady_clock::time_point limit, int& status) {
  while (true) {
    pid_t got = ::waitpid(pid, &status, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) return true;
    if (std::chrono::steady_clock::now() >= limit) return false;
    ::poll(nullptr, 0, 20);
  }
}

int exit_code_of(int wait_status) {
  if (WIFEXITED(wait_status)) return WEXITSTATUS(wait_status);
  if (WIFSIGNALED(wait_status)) return 128 + WTERMSIG(wait_status);
  return 1;
}

std::vector<char*> exec_argv(const std::vector<std::string>& words) {
  std::vector<char*> out;
  out.reserve(words.size() + 1);
  // exec takes char* const[] for C's sake; it does not write through them.
  for (const auto& w : words) out.push_back(const_cast<char*>(w.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace trainyard
