// Starts Azurite's Blob service (tests/tools, `npm ci` there) on a free loopback port for one test,
// its data in a fresh folder, and stops it afterwards.
#pragma once

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

extern char** environ;

namespace trainyard::azuretest {

/// Where `npm ci` in tests/tools puts Azurite's Blob service.
inline std::string azurite_path() {
  return TRAINYARD_AZURITE;
}

/// True when Azurite is installed. Outside CI a test may skip without it; in CI its absence is a
/// failure (the tests would otherwise pass without running).
inline bool azurite_available() {
  return ::access(azurite_path().c_str(), X_OK) == 0;
}
inline bool azurite_required() {
  const char* ci = std::getenv("CI");
  return ci != nullptr && std::string(ci) == "true";
}

/// A running Azurite Blob service (account devstoreaccount1 and its published key).
class AzuriteProcess {
 public:
  AzuriteProcess() {
    dir_ = std::filesystem::temp_directory_path() /
           ("ty-azurite-" + std::to_string(::getpid()) + "-" + std::to_string(++counter()));
    std::filesystem::create_directories(dir_);
    const std::string log = (dir_ / "out.txt").string();
    std::vector<std::string> args{azurite_path(),
                                  "--blobHost",
                                  "127.0.0.1",
                                  "--blobPort",
                                  "0",
                                  "--location",
                                  (dir_ / "data").string(),
                                  "--silent",
                                  "--skipApiVersionCheck",
                                  "--disableTelemetry"};
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int rc = posix_spawn(&pid_, args[0].c_str(), &fa, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc != 0) throw std::runtime_error("cannot start " + args[0]);
    wait_for_port(log);
  }

  ~AzuriteProcess() {
    ::kill(pid_, SIGTERM);
    for (int i = 0; i < 100 && ::waitpid(pid_, nullptr, WNOHANG) != pid_; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (i == 99) {
        ::kill(pid_, SIGKILL);
        ::waitpid(pid_, nullptr, 0);
      }
    }
    std::error_code ec;
    std::filesystem::remove_all(dir_, ec);
  }

  /// `http://127.0.0.1:PORT/devstoreaccount1`
  std::string blob_endpoint() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/devstoreaccount1";
  }
  /// A connection string for the account, as Azurite documents it.
  std::string connection_string() const {
    return "DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey="
           "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/"
           "KBHBeksoGMGw==;BlobEndpoint=" +
           blob_endpoint() + ";";
  }
  int port() const { return port_; }

 private:
  static int& counter() {
    static int n = 0;
    return n;
  }

  void wait_for_port(const std::string& log) {
    const std::string mark = "successfully listens on http://127.0.0.1:";
    for (int i = 0; i < 600; ++i) {
      std::ifstream in(log);
      std::stringstream text;
      text << in.rdbuf();
      auto at = text.str().find(mark);
      if (at != std::string::npos) {
        port_ = std::atoi(text.str().c_str() + at + mark.size());
        if (port_ > 0) return;
      }
      if (::waitpid(pid_, nullptr, WNOHANG) == pid_) break;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    throw std::runtime_error("Azurite did not start; see " + log);
  }

  std::filesystem::path dir_;
  pid_t pid_ = -1;
  int port_ = 0;
};

}  // namespace trainyard::azuretest

/// Skips the test where Azurite is not installed, except in CI, where that fails it.
#define TY_REQUIRE_AZURITE()                                                              \
  do {                                                                                    \
    if (!trainyard::azuretest::azurite_available()) {                                     \
      if (trainyard::azuretest::azurite_required())                                       \
        FAIL() << "Azurite is not installed: run npm ci in tests/tools (CI requires it)"; \
      GTEST_SKIP() << "Azurite is not installed (npm ci in tests/tools)";                 \
    }                                                                                     \
  } while (0)
