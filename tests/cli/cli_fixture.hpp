// Shared fixture of the CLI tests: a temporary home, data dir and environment per test.
#pragma once

#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include <nlohmann/json.hpp>

#include "cli_runner.hpp"

namespace trainyard::clitest {

using namespace std::chrono_literals;
using nlohmann::json;
namespace fs = std::filesystem;

/// A temporary home for one test: a data dir, config and XDG dirs; nothing of it outlives it.
class Cli : public ::testing::Test {
 protected:
  Cli() {
    std::string tmpl = (fs::temp_directory_path() / "trainyard-cli-XXXXXX").string();
    if (!::mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    root_ = tmpl;
    data_ = root_ + "/data";
    env_ = environment_without({"TRAINYARD_DATA_DIR", "XDG_DATA_HOME", "XDG_CONFIG_HOME", "HOME",
                                "TRAINYARD_CPU_SLOTS", "TRAINYARD_NVML_LIB"});
    env_.push_back("HOME=" + root_ + "/home");
    env_.push_back("XDG_DATA_HOME=" + root_ + "/xdg-data");
    env_.push_back("XDG_CONFIG_HOME=" + root_ + "/xdg-config");
    env_.push_back("TRAINYARD_CPU_SLOTS=1");
    env_.push_back("TRAINYARD_NVML_LIB=" + root_ + "/no-nvml.so");
  }

  ~Cli() override {
    stop_everything();
    auto left = settle_processes();
    EXPECT_TRUE(left.empty()) << left.size() << " process(es) of " << root_ << " left behind";
    for (pid_t pid : left) ::kill(pid, SIGKILL);
    std::error_code ec;
    fs::remove_all(root_, ec);
  }

  /// Runs trainyard with `--data-dir <data>` first.
  Outcome ty(std::vector<std::string> args, std::chrono::seconds timeout = 60s) {
    args.insert(args.begin(), {"--data-dir", data_});
    return run_process(TRAINYARD_BIN, args, env_, timeout);
  }

  /// Removes NAME from the environment of every later run.
  void unset_env(const std::string& name) {
    std::erase_if(env_, [&](const std::string& e) { return e.starts_with(name + "="); });
  }

  /// Sets NAME=value in the environment of every later run.
  void set_env(const std::string& name, const std::string& value) {
    std::erase_if(env_, [&](const std::string& e) { return e.starts_with(name + "="); });
    env_.push_back(name + "=" + value);
  }

  /// Runs trainyard exactly as given, with `extra` added to the environment.
  Outcome bare(const std::vector<std::string>& args, const std::vector<std::string>& extra = {}) {
    auto env = env_;
    env.insert(env.end(), extra.begin(), extra.end());
    return run_process(TRAINYARD_BIN, args, env);
  }

  /// `run ARGS -- CMD...`; returns the JOB/TASK it printed (asserting success).
  std::string submit(std::vector<std::string> args, const std::vector<std::string>& command) {
    args.insert(args.begin(), "run");
    args.push_back("--");
    args.insert(args.end(), command.begin(), command.end());
    auto r = ty(args);
    EXPECT_EQ(r.code, 0) << r.err;
    auto lines = lines_of(r.out);
    return lines.empty() ? std::string() : lines.back();
  }

  /// `ls WHAT --json`, parsed.
  json ls_json(const std::string& what, std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"ls", what, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = ty(args);
    EXPECT_EQ(r.code, 0) << r.err;
    try {
      return json::parse(r.out);
    } catch (const json::exception& e) {
      ADD_FAILURE() << "ls " << what << " --json printed no single JSON value: " << e.what() << "\n"
                    << r.out;
      return json();
    }
  }

  /// The task's wire object from `ls tasks --json`, or null.
  json task_json(const std::string& ref) {
    auto slash = ref.find('/');
    for (const auto& t : ls_json("tasks", {"--job", ref.substr(0, slash)}))
      if (t.value("id", "") == ref.substr(slash + 1)) return t;
    return json();
  }

  /// Polls until `path` exists with content; false after `limit`.
  static bool wait_for_file(const std::string& path, std::chrono::seconds limit = 30s) {
    for (auto end = std::chrono::steady_clock::now() + limit;
         std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(50ms)) {
      if (!read_file(path).empty()) return true;
    }
    return false;
  }

  /// Waits until the task is running (its state in `ls tasks --json`).
  bool wait_running(const std::string& ref, std::chrono::seconds limit = 30s) {
    for (auto end = std::chrono::steady_clock::now() + limit;
         std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(100ms)) {
      if (task_json(ref).value("state", "") == "running") return true;
    }
    return false;
  }

  const std::string& root() const { return root_; }
  /// The environment every run gets.
  const std::vector<std::string>& environment() const { return env_; }
  const std::string& data() const { return data_; }

 private:
  // `ls ARGS --json` without judging it (cleanup after a failed test): null when it fails.
  json quiet_json(std::vector<std::string> args) {
    args.push_back("--json");
    auto r = ty(args);
    return r.code == 0 ? json::parse(r.out, nullptr, false) : json();
  }

  // Stops whatever a failed test left running in this data dir.
  void stop_everything() {
    if (!fs::exists(data_ + "/cache.db")) return;
    auto jobs = quiet_json({"ls", "jobs"});
    if (!jobs.is_array()) return;
    for (const auto& j : jobs) {
      auto job = j.value("id", "");
      auto tasks = quiet_json({"ls", "tasks", "--job", job});
      if (!tasks.is_array()) continue;
      for (const auto& t : tasks)
        if (t.value("state", "") != "completed")
          ty({"stop", "--grace", "1", job + "/" + t.value("id", "")});
    }
  }

  // Gives supervisors a moment to record and exit; returns what is still there.
  std::vector<pid_t> settle_processes() {
    std::vector<pid_t> left;
    for (int i = 0; i < 100; ++i) {
      left = processes_mentioning(root_);
      if (left.empty()) break;
      std::this_thread::sleep_for(100ms);
    }
    return left;
  }

  std::string root_, data_;
  std::vector<std::string> env_;
};

}  // namespace trainyard::clitest
