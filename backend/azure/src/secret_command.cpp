#include "secret_command.hpp"

#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <map>

#include <fmt/format.h>

extern char** environ;

namespace trainyard::azure {

namespace {

constexpr auto kLimit = std::chrono::seconds(30);

// Reads the child's stdout until EOF or the deadline; false on timeout.
bool read_until_eof(int fd, std::string& out, std::chrono::steady_clock::time_point deadline) {
  char buf[4096];
  while (true) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(
        deadline - std::chrono::steady_clock::now());
    if (left.count() <= 0) return false;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    ssize_t n = ::read(fd, buf, sizeof buf);
    if (n <= 0) return true;
    out.append(buf, static_cast<size_t>(n));
    if (out.size() > 1 << 20) return true;
  }
}

}  // namespace

Result<std::string> run_secret_command(const std::string& command, const std::string& account) {
  int out[2];
  if (::pipe2(out, O_CLOEXEC) != 0) return make_error(ErrorKind::Io, "keyCommand: pipe failed");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_adddup2(&fa, out[1], 1);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  const char* argv[] = {"/bin/sh", "-c", command.c_str(), nullptr};
  pid_t pid = -1;
  int rc = posix_spawn(&pid, "/bin/sh", &fa, nullptr, const_cast<char**>(argv), environ);
  posix_spawn_file_actions_destroy(&fa);
  ::close(out[1]);
  if (rc != 0) {
    ::close(out[0]);
    return make_error(ErrorKind::Io, fmt::format("account {}: cannot run keyCommand", account));
  }
  std::string text;
  bool finished = read_until_eof(out[0], text, std::chrono::steady_clock::now() + kLimit);
  ::close(out[0]);
  if (!finished) ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
  if (!finished)
    return make_error(ErrorKind::Auth,
                      fmt::format("account {}: keyCommand took longer than 30 s", account));
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
    return make_error(
        ErrorKind::Auth,
        fmt::format("account {}: keyCommand failed (exit status {})", account,
                    WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status)));
  }
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.empty())
    return make_error(ErrorKind::Auth,
                      fmt::format("account {}: keyCommand printed nothing", account));
  return text;
}

Result<std::string> resolve_secret(const std::string& inline_value, const std::string& env_name,
                                   const std::string& command,
                                   const std::map<std::string, std::string>& env,
                                   const std::string& account) {
  if (!inline_value.empty()) return inline_value;
  if (!env_name.empty()) {
    auto it = env.find(env_name);
    if (it == env.end() || it->second.empty()) {
      return make_error(ErrorKind::Auth,
                        fmt::format("account {}: ${} is not set", account, env_name));
    }
    return it->second;
  }
  if (!command.empty()) return run_secret_command(command, account);
  return make_error(ErrorKind::Auth, fmt::format("account {}: no secret configured", account));
}

}  // namespace trainyard::azure
