#include "plugin_process.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include "local/child_wait.hpp"

namespace trainyard {
namespace {

constexpr size_t kMaxOutput = 1 << 20;

pid_t spawn_shell(const std::string& command, const std::vector<std::string>& env, int out_fd) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 1);
  posix_spawn_file_actions_adddup2(&fa, out_fd, 2);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  // Its own group, so a timeout kills what the shell started too (ssh, a pipeline).
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETPGROUP);
  posix_spawnattr_setpgroup(&attr, 0);
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  auto envp = exec_argv(env);
  pid_t pid = -1;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, &attr, const_cast<char**>(argv), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  posix_spawnattr_destroy(&attr);
  return rc == 0 ? pid : -1;
}

// Reads until EOF; false when the deadline passed or `cancel` was set first.
bool read_all(int fd, std::string& out, std::chrono::steady_clock::time_point deadline,
              const std::atomic<bool>& cancel, bool& cancelled) {
  char buf[4096];
  while (!(cancelled = cancel.load())) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::min<long>(left.count(), 100))) <= 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return true;
    if (out.size() < kMaxOutput)
      out.append(buf, std::min(static_cast<size_t>(n), kMaxOutput - out.size()));
  }
  return false;
}

}  // namespace

PluginOutcome run_plugin_command(const std::string& command, const std::vector<std::string>& env,
                                 std::chrono::milliseconds limit, const std::atomic<bool>& cancel) {
  PluginOutcome o;
  int pipe_fds[2];
  if (::pipe2(pipe_fds, O_CLOEXEC) != 0) {
    o.error = "cannot make a pipe";
    return o;
  }
  pid_t pid = spawn_shell(command, env, pipe_fds[1]);
  ::close(pipe_fds[1]);
  if (pid < 0) {
    ::close(pipe_fds[0]);
    o.error = "cannot run /bin/sh";
    return o;
  }
  auto deadline = std::chrono::steady_clock::now() + limit;
  bool finished = read_all(pipe_fds[0], o.output, deadline, cancel, o.cancelled);
  ::close(pipe_fds[0]);
  if (!finished) ::kill(-pid, SIGKILL);
  o.timed_out = !finished && !o.cancelled;
  int status = 0;
  ::waitpid(pid, &status, 0);
  o.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  return o;
}

}  // namespace trainyard
