#include "local/process.hpp"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "core/child_process.hpp"

namespace trainyard {
namespace {

// Owns the spawn attribute and file-action objects.
struct SpawnSetup {
  posix_spawnattr_t attr{};
  posix_spawn_file_actions_t actions{};
  SpawnSetup() {
    posix_spawnattr_init(&attr);
    posix_spawn_file_actions_init(&actions);
  }
  ~SpawnSetup() {
    posix_spawnattr_destroy(&attr);
    posix_spawn_file_actions_destroy(&actions);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
};

// Every signal back to its default disposition, so the child does not inherit our ignores.
void reset_signals(posix_spawnattr_t& attr, const sigset_t& mask) {
  sigset_t all;
  sigfillset(&all);
  posix_spawnattr_setsigdefault(&attr, &all);
  posix_spawnattr_setsigmask(&attr, &mask);
  posix_spawnattr_setflags(&attr,
                           POSIX_SPAWN_SETSID | POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
}

Result<ChildInfo> finish_spawn(int rc, pid_t pid, const std::string& what) {
  if (rc != 0)
    return make_error(ErrorKind::Io, fmt::format("cannot start {}: {}", what, std::strerror(rc)));
  ChildInfo info{pid, pid, process_start_ticks(pid).value_or(0)};
  return info;
}

bool is_safe_shell_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || std::strchr("@%+=:,./_-", c) != nullptr;
}

}  // namespace

Result<ChildInfo> spawn_task_process(const ChildSpec& spec) {
  SpawnSetup s;
  sigset_t empty;
  sigemptyset(&empty);
  reset_signals(s.attr, empty);
  posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&s.actions, 1, spec.stdout_path.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_addopen(&s.actions, 2, spec.stderr_path.c_str(),
                                   O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (!spec.workdir.empty()) posix_spawn_file_actions_addchdir_np(&s.actions, spec.workdir.c_str());
  std::vector<std::string> argv{"/bin/sh", "-c", spec.command_line};
  auto args = exec_argv(argv);
  auto envp = exec_argv(spec.env);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, "/bin/sh", &s.actions, &s.attr, args.data(), envp.data());
  return finish_spawn(rc, pid, "/bin/sh");
}

Result<ChildInfo> spawn_detached(const std::string& exe, const std::vector<std::string>& args,
                                 const std::vector<std::string>& env) {
  SpawnSetup s;
  sigset_t blocked;
  sigemptyset(&blocked);
  for (int sig : {SIGTERM, SIGINT, SIGCHLD}) sigaddset(&blocked, sig);
  reset_signals(s.attr, blocked);
  posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&s.actions, 1, "/dev/null", O_WRONLY, 0);
  posix_spawn_file_actions_addopen(&s.actions, 2, "/dev/null", O_WRONLY, 0);
  std::vector<std::string> argv{exe};
  argv.insert(argv.end(), args.begin(), args.end());
  auto c_args = exec_argv(argv);
  auto envp = exec_argv(env);
  pid_t pid = 0;
  int rc = posix_spawn(&pid, exe.c_str(), &s.actions, &s.attr, c_args.data(), envp.data());
  return finish_spawn(rc, pid, exe);
}

ExitStatus decode_wait_status(int status) {
  ExitStatus out;
  if (WIFEXITED(status)) out.exit_code = WEXITSTATUS(status);
  if (WIFSIGNALED(status)) out.signal = WTERMSIG(status);
  return out;
}

std::string read_proc_file(pid_t pid, const char* name) {
  // read(2), not a stream: a stream's buffer throws when the process ends mid-read (ESRCH).
  int fd = ::open(fmt::format("/proc/{}/{}", pid, name).c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::string out;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd, buf, sizeof buf)) > 0;) out.append(buf, static_cast<size_t>(n));
  ::close(fd);
  return out;
}

std::optional<int64_t> process_start_ticks(pid_t pid) {
  std::string content = read_proc_file(pid, "stat");
  // The command name (field 2) may hold spaces and parentheses: parse after the last ')'.
  auto close = content.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(content.substr(close + 2));
  std::string field;
  for (int i = 3; i <= 22 && rest >> field; ++i) {
    if (i == 3 && field == "Z") return std::nullopt;
    if (i == 22) return std::stoll(field);
  }
  return std::nullopt;
}

bool process_matches(pid_t pid, int64_t start_ticks) {
  if (pid <= 0) return false;
  auto ticks = process_start_ticks(pid);
  return ticks && *ticks == start_ticks;
}

namespace {

// Field 5 of /proc/<pid>/stat, the process group; nullopt when the process is gone or a zombie.
std::optional<pid_t> process_group_of(pid_t pid) {
  std::string content = read_proc_file(pid, "stat");
  auto close = content.rfind(')');
  if (close == std::string::npos) return std::nullopt;
  std::istringstream rest(content.substr(close + 1));
  std::string state, ppid;
  pid_t pgrp = 0;
  if (!(rest >> state >> ppid >> pgrp) || state == "Z") return std::nullopt;
  return pgrp;
}

}  // namespace

std::vector<pid_t> group_members(pid_t pgid) {
  std::vector<pid_t> out;
  std::error_code ec;
  for (std::filesystem::directory_iterator it("/proc", ec), end; !ec && it != end;
       it.increment(ec)) {
    auto name = it->path().filename().string();
    if (name.empty() || name.find_first_not_of("0123456789") != std::string::npos) continue;
    auto pid = static_cast<pid_t>(std::stol(name));
    if (process_group_of(pid) == pgid) out.push_back(pid);
  }
  return out;
}

bool environment_holds(pid_t pid, const std::string& entry) {
  std::istringstream in(read_proc_file(pid, "environ"));
  for (std::string item; std::getline(in, item, '\0');)
    if (item == entry) return true;
  return false;
}

bool group_alive(pid_t pgid) {
  return pgid > 0 && (killpg(pgid, 0) == 0 || errno == EPERM);
}

Result<void> signal_group(pid_t pgid, int sig) {
  if (pgid <= 1) return make_error(ErrorKind::Internal, "refusing to signal process group <= 1");
  if (killpg(pgid, sig) == 0 || errno == ESRCH) return ok_result();
  return make_error(ErrorKind::Io,
                    fmt::format("kill -{} -{}: {}", sig, pgid, std::strerror(errno)));
}

void terminate_group(pid_t pgid, std::chrono::milliseconds grace, void (*reap)()) {
  using namespace std::chrono;
  (void)signal_group(pgid, SIGTERM);
  auto deadline = steady_clock::now() + grace;
  while (group_alive(pgid) && steady_clock::now() < deadline) {
    if (reap) reap();
    std::this_thread::sleep_for(20ms);
  }
  if (group_alive(pgid)) (void)signal_group(pgid, SIGKILL);
  for (int i = 0; i < 250 && group_alive(pgid); ++i) {
    if (reap) reap();
    std::this_thread::sleep_for(20ms);
  }
}

std::string shell_quote(const std::vector<std::string>& words) {
  std::string out;
  for (const auto& w : words) {
    if (!out.empty()) out += ' ';
    bool safe = !w.empty();
    for (char c : w) safe = safe && is_safe_shell_char(c);
    if (safe) {
      out += w;
      continue;
    }
    out += '\'';
    for (char c : w) out += (c == '\'') ? std::string("'\\''") : std::string(1, c);
    out += '\'';
  }
  return out;
}

std::string self_executable() {
  char buf[4096];
  auto n = readlink("/proc/self/exe", buf, sizeof buf - 1);
  return n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
}

}  // namespace trainyard
