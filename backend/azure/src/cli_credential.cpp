// Tokens from the `az` CLI's login: runs `az account get-access-token` without a shell, with a
// time limit, and caches the token (bearer_credential.cpp) since each run costs a second or more.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "azure/credentials.hpp"
#include "bearer_credential.hpp"

extern char** environ;

namespace trainyard::azure {

namespace {

using SteadyClock = std::chrono::steady_clock;
using nlohmann::json;

// More output than any token reply; stops a runaway child from filling memory.
constexpr size_t kOutputCap = 1 << 20;

/// What a finished (or killed) child left behind.
struct ChildResult {
  bool timed_out = false;
  int exit_status = 0;  // 128 + signal when killed by one
  std::string out, err;
};

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
  void close_end(int i) {
    ::close(fd[static_cast<size_t>(i)]);
    fd[static_cast<size_t>(i)] = -1;
  }
};

/// posix_spawn's settings: stdin from /dev/null, stdout and stderr into the pipes, a process group
/// of its own (so a timeout kills what it started too), default SIGPIPE and no blocked signals.
class SpawnSetup {
 public:
  SpawnSetup(const Pipe& out, const Pipe& err) {
    posix_spawn_file_actions_init(&actions_);
    posix_spawn_file_actions_addopen(&actions_, 0, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_adddup2(&actions_, out.fd[1], 1);
    posix_spawn_file_actions_adddup2(&actions_, err.fd[1], 2);
    posix_spawnattr_init(&attr_);
    sigset_t none, pipe_only;
    sigemptyset(&none);
    sigemptyset(&pipe_only);
    sigaddset(&pipe_only, SIGPIPE);
    posix_spawnattr_setsigmask(&attr_, &none);
    posix_spawnattr_setsigdefault(&attr_, &pipe_only);
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

  /// Starts argv[0] (looked up in PATH when it has no `/`); an errno value on failure.
  int spawn(pid_t& pid, std::vector<std::string>& args) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    bool search = args[0].find('/') == std::string::npos;
    return search ? posix_spawnp(&pid, argv[0], &actions_, &attr_, argv.data(), environ)
                  : posix_spawn(&pid, argv[0], &actions_, &attr_, argv.data(), environ);
  }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attr_;
};

// Appends what is readable on `fd`; false once it reached EOF (or failed).
bool drain(int fd, std::string& into) {
  char buf[4096];
  ssize_t n = ::read(fd, buf, sizeof buf);
  if (n < 0 && (errno == EINTR || errno == EAGAIN)) return true;
  if (n <= 0) return false;
  if (into.size() < kOutputCap) into.append(buf, static_cast<size_t>(n));
  return true;
}

// Reads stdout and stderr until both close or the deadline passes; false on timeout.
bool collect(int out_fd, int err_fd, ChildResult& r, SteadyClock::time_point deadline) {
  std::array<pollfd, 2> fds{pollfd{out_fd, POLLIN, 0}, pollfd{err_fd, POLLIN, 0}};
  std::array<std::string*, 2> sinks{&r.out, &r.err};
  while (fds[0].fd >= 0 || fds[1].fd >= 0) {
    auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - SteadyClock::now())
                    .count();
    if (left <= 0) return false;
    if (::poll(fds.data(), fds.size(), static_cast<int>(left)) < 0) {
      if (errno == EINTR) continue;  // revents are stale after a failed poll
      return false;
    }
    for (size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].fd >= 0 && (fds[i].revents & (POLLIN | POLLHUP | POLLERR)) &&
          !drain(fds[i].fd, *sinks[i])) {
        fds[i].fd = -1;  // poll ignores negative descriptors
      }
    }
  }
  return true;
}

// Reaps the child so it never lingers as a zombie; its exit status, or 128 + signal.
int reap(pid_t pid) {
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return -1;
  }
  return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}

Result<ChildResult> run_child(std::vector<std::string> args, std::chrono::milliseconds timeout) {
  Pipe out, err;
  if (!out.ok() || !err.ok()) {
    return make_error(ErrorKind::Io, "cannot create pipes for a child process");
  }
  pid_t pid = -1;
  int rc = SpawnSetup(out, err).spawn(pid, args);
  out.close_end(1);
  err.close_end(1);
  if (rc != 0) {
    return make_error(ErrorKind::Io, fmt::format("cannot run {}: {}", args[0], std::strerror(rc)));
  }
  ChildResult r;
  r.timed_out = !collect(out.fd[0], err.fd[0], r, SteadyClock::now() + timeout);
  if (r.timed_out) {
    ::kill(-pid, SIGKILL);  // the group: az is a Python launcher that may have started others
    ::kill(pid, SIGKILL);
  }
  r.exit_status = reap(pid);
  return r;
}

// `2023-11-14 12:34:56.123456` in local time, the CLI's format before `expires_on` (2.54).
std::optional<Timestamp> parse_local_time(const std::string& text) {
  std::tm tm{};
  int fields = std::sscanf(text.c_str(), "%4d-%2d-%2d %2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
                           &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec);
  if (fields != 6) return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  tm.tm_isdst = -1;  // let the zone rules decide, as the CLI's datetime.fromtimestamp did
  std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return Timestamp(std::chrono::seconds(t));
}

// A POSIX time as az prints it (a number, or a string of digits); the year 5000 at most, so the
// Timestamp cannot overflow.
std::optional<Timestamp> posix_seconds(const json& v) {
  int64_t secs = -1;
  if (v.is_number_integer()) secs = v.get<int64_t>();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (std::from_chars(s.data(), s.data() + s.size(), secs).ptr != s.data() + s.size()) secs = -1;
  }
  if (secs < 0 || secs > 100'000'000'000) return std::nullopt;
  return Timestamp(std::chrono::seconds(secs));
}

std::optional<Timestamp> cli_expiry(const json& body) {
  if (auto it = body.find("expires_on"); it != body.end()) {
    if (auto t = posix_seconds(*it)) return t;
  }
  if (auto it = body.find("expiresOn"); it != body.end() && it->is_string()) {
    return parse_local_time(it->get<std::string>());
  }
  return std::nullopt;
}

// az prints warnings before its error; the `ERROR:` line says what went wrong.
std::string_view az_complaint(std::string_view err) {
  size_t at = err.find("ERROR:");
  return at == std::string_view::npos ? err : err.substr(at);
}

class AzureCliCredential final : public BearerCredential {
 public:
  AzureCliCredential(std::string az_path, std::string resource, std::chrono::milliseconds timeout)
      : az_path_(std::move(az_path)), resource_(std::move(resource)), timeout_(timeout) {}

  std::string describe() const override { return fmt::format("az CLI login ({})", az_path_); }

 protected:
  Result<AccessToken> fetch(Timestamp now) override;

 private:
  Error failure(const ChildResult& r) const;
  Result<AccessToken> parse(const std::string& out) const;

  std::string az_path_, resource_;
  std::chrono::milliseconds timeout_;
};

Result<AccessToken> AzureCliCredential::fetch(Timestamp /*now*/) {
  auto r = run_child(
      {az_path_, "account", "get-access-token", "--resource", resource_, "-o", "json"}, timeout_);
  if (!r) {
    return make_error(ErrorKind::Auth, fmt::format("{}: {} (is the Azure CLI installed?)",
                                                   describe(), r.error().message));
  }
  if (r->timed_out || r->exit_status != 0) return failure(*r);
  return parse(r->out);
}

// Names the exit status and az's own complaint (stderr, e.g. "Please run 'az login'"); stdout may
// hold a token, so it never goes into a message.
Error AzureCliCredential::failure(const ChildResult& r) const {
  if (r.timed_out) {
    return make_error(ErrorKind::Auth,
                      fmt::format("{}: `az account get-access-token` took longer than {} ms and "
                                  "was killed",
                                  describe(), timeout_.count()));
  }
  std::string why = first_line_for_message(az_complaint(r.err));
  return make_error(ErrorKind::Auth,
                    fmt::format("{}: `az account get-access-token` failed (exit status {}){}{}",
                                describe(), r.exit_status, why.empty() ? "" : ": ", why));
}

Result<AccessToken> AzureCliCredential::parse(const std::string& out) const {
  json body = json::parse(out, nullptr, false);
  auto it = body.find("accessToken");  // end() for anything but an object
  std::optional<Timestamp> expiry = body.is_object() ? cli_expiry(body) : std::nullopt;
  if (it == body.end() || !it->is_string() || it->get_ref<const std::string&>().empty() ||
      !expiry) {
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: `az account get-access-token` printed no accessToken "
                                  "with an expiry",
                                  describe()));
  }
  return AccessToken{it->get<std::string>(), *expiry};
}

}  // namespace

std::unique_ptr<Credential> azure_cli_credential(std::string az_path, std::string resource,
                                                 std::chrono::milliseconds timeout) {
  return std::make_unique<AzureCliCredential>(std::move(az_path), std::move(resource), timeout);
}

}  // namespace trainyard::azure
