#include "tensorboard.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <sstream>

#include <fmt/format.h>

#include "core/child_process.hpp"

namespace trainyard {
namespace {

bool port_free(int port) {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  ::close(fd);
  return ok;
}

// True when the child in `pid` was reaped by `limit`.
bool reaped_in_time(pid_t pid, std::chrono::steady_clock::time_point limit) {
  int status = 0;
  return reaped_by(pid, limit, status);
}

}  // namespace

std::optional<std::string> find_on_path(const std::string& program, const std::string& path) {
  std::stringstream dirs(path);
  std::string dir;
  while (std::getline(dirs, dir, ':')) {
    auto full = (dir.empty() ? "." : dir) + "/" + program;
    if (::access(full.c_str(), X_OK) == 0) return full;
  }
  return std::nullopt;
}

std::optional<int> free_local_port(int first) {
  for (int port = first; port < first + 20; ++port)
    if (port_free(port)) return port;
  return std::nullopt;
}

TensorBoard::~TensorBoard() {
  stop();
}

Result<std::string> TensorBoard::start(const std::string& program, const std::string& logdir,
                                       const std::vector<std::string>& env) {
  if (pid_ && logdir == logdir_) return url_;
  stop();
  auto port = free_local_port(6006);
  if (!port) return make_error(ErrorKind::Io, "no free port from 6006 to 6025 for TensorBoard");
  std::vector<std::string> argv{program,  "--logdir",           logdir, "--host", "127.0.0.1",
                                "--port", std::to_string(*port)};
  auto vars = env;
  auto args = exec_argv(argv);
  auto envp = exec_argv(vars);
  const pid_t parent = ::getpid();
  pid_t pid = ::fork();
  if (pid < 0) return make_error(ErrorKind::Io, "cannot start TensorBoard: fork failed");
  if (pid == 0) {
    ::setpgid(0, 0);
    // Ends with the TUI even when the TUI is killed: no orphan keeps the port.
    ::prctl(PR_SET_PDEATHSIG, SIGTERM);
    if (::getppid() != parent) ::_exit(0);
    int null = ::open("/dev/null", O_RDWR);
    for (int fd = 0; fd <= 2 && null >= 0; ++fd) ::dup2(null, fd);
    ::execve(args[0], args.data(), envp.data());
    ::_exit(127);
  }
  ::setpgid(pid, pid);
  pid_ = pid;
  logdir_ = logdir;
  url_ = fmt::format("http://127.0.0.1:{}/", *port);
  return url_;
}

void TensorBoard::stop() {
  if (!pid_) return;
  ::kill(-pid_, SIGTERM);
  if (!reaped_in_time(pid_, std::chrono::steady_clock::now() + std::chrono::seconds(2))) {
    ::kill(-pid_, SIGKILL);
    reaped_in_time(pid_, std::chrono::steady_clock::now() + std::chrono::seconds(2));
  }
  pid_ = 0;
  logdir_.clear();
  url_.clear();
}

}  // namespace trainyard
