// Starts `trainyard emulator` on a free loopback port for one test and stops it afterwards.
#pragma once

#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace trainyard::azuretest {

/// A running emulator; its endpoint and key as it printed them.
class EmulatorProcess {
 public:
  explicit EmulatorProcess(std::vector<std::string> extra = {},
                           std::string key = "dHJhaW55YXJkLXRlc3Qta2V5LXRyYWlueWFyZC10ZXN0LWtleQ==")
      : key_(std::move(key)) {
    int out[2];
    if (::pipe(out) != 0) throw std::runtime_error("pipe");
    std::vector<std::string> args{TRAINYARD_BIN, "emulator", "--port",         "0",
                                  "--key",       key_,       "--node-step-ms", "100"};
    args.insert(args.end(), extra.begin(), extra.end());
    for (const auto& a : extra) ca_expected_ = ca_expected_ || a == "--tls";
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_adddup2(&fa, out[1], 1);
    posix_spawn_file_actions_addclose(&fa, out[0]);
    if (posix_spawn(&pid_, TRAINYARD_BIN, &fa, nullptr, argv.data(), environ) != 0) {
      throw std::runtime_error("cannot start the emulator");
    }
    posix_spawn_file_actions_destroy(&fa);
    ::close(out[1]);
    read_exports(out[0]);
    ::close(out[0]);
  }

  ~EmulatorProcess() {
    ::kill(pid_, SIGCONT);  // a paused one must run to end
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 300; ++i) {
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }

  /// Stops the process (SIGSTOP): connections are still accepted, and nothing answers.
  void pause() { ::kill(pid_, SIGSTOP); }
  /// Lets a paused process run again (SIGCONT).
  void resume() { ::kill(pid_, SIGCONT); }

  const std::string& endpoint() const { return endpoint_; }
  const std::string& key() const { return key_; }
  const std::string& account() const { return account_; }
  const std::string& ca_file() const { return ca_; }

 private:
  void read_exports(int fd) {
    FILE* f = ::fdopen(::dup(fd), "r");
    char line[4096];
    bool key_seen = false;
    while (f && std::fgets(line, sizeof line, f)) {
      std::string s(line);
      while (!s.empty() && s.back() == '\n') s.pop_back();
      auto take = [&](const char* prefix, std::string& into) {
        if (s.rfind(prefix, 0) == 0) into = s.substr(std::string(prefix).size());
      };
      take("export AZURE_BATCH_ENDPOINT=", endpoint_);
      take("export AZURE_BATCH_ACCOUNT=", account_);
      take("export REQUESTS_CA_BUNDLE=", ca_);
      if (s.rfind("export AZURE_BATCH_ACCESS_KEY=", 0) == 0) key_seen = true;
      // With --tls the CA line follows the key line.
      if (key_seen && (!ca_expected_ || !ca_.empty())) break;
    }
    if (f) std::fclose(f);
    if (endpoint_.empty()) throw std::runtime_error("the emulator printed no endpoint");
  }

  std::string key_;
  pid_t pid_ = -1;
  std::string endpoint_, account_, ca_;
  bool ca_expected_ = false;
};

}  // namespace trainyard::azuretest
