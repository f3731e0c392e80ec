// Shared fixture: a temporary data directory, a store and an engine whose supervisors are real.
#pragma once

#include <dirent.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>

#include "local/engine.hpp"
#include "local/process.hpp"
#include "local/task_environment.hpp"

namespace trainyard::test {

using namespace std::chrono_literals;

/// Pids of live processes whose command line mentions `needle`.
inline std::vector<pid_t> processes_mentioning(const std::string& needle) {
  std::vector<pid_t> out;
  for (const auto& e : std::filesystem::directory_iterator("/proc")) {
    auto name = e.path().filename().string();
    if (name.find_first_not_of("0123456789") != std::string::npos) continue;
    pid_t pid = std::stoi(name);
    std::string cmd = read_proc_file(pid, "cmdline");
    if (cmd.find(needle) != std::string::npos && pid != getpid() && process_start_ticks(pid))
      out.push_back(pid);
  }
  return out;
}

class EngineTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/trainyard-engine-XXXXXX";
    dir_ = mkdtemp(tmpl);
    auto s = Store::open(dir_ + "/cache.db");
    ASSERT_TRUE(s.ok()) << s.error().message;
    store_ = std::move(*s);
    config_.data_dir = dir_;
    config_.trainyard_exe = TRAINYARD_BIN;
    config_.cpu_slots = 1;
    config_.default_grace = std::chrono::seconds(2);
    engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  }

  void TearDown() override {
    // Nothing of ours may outlive a test: supervisors and tasks mention the data dir or marker.
    for (int i = 0; i < 100 && !processes_mentioning(dir_).empty(); ++i)
      std::this_thread::sleep_for(50ms);
    auto left = processes_mentioning(dir_);
    for (pid_t p : left) kill(p, SIGKILL);
    EXPECT_TRUE(left.empty()) << left.size() << " trainyard process(es) left running";
    engine_->reap_children();
    int status = 0;
    while (waitpid(-1, &status, WNOHANG) > 0) {
    }
    std::filesystem::remove_all(dir_);
  }

  SubmitRequest request(const std::string& id, const std::string& cmd) {
    SubmitRequest r;
    r.job = "j";
    r.id = id;
    r.command_line = cmd;
    r.workdir = dir_;
    r.environment = current_environment();
    return r;
  }

  Task submit(const SubmitRequest& r) {
    auto t = engine_->submit(r);
    EXPECT_TRUE(t.ok()) << (t.ok() ? "" : t.error().message);
    return t.ok() ? *t : Task{};
  }

  Task wait_done(const std::string& id, std::chrono::seconds limit = 30s) {
    auto deadline = std::chrono::steady_clock::now() + limit;
    for (;;) {
      engine_->reap_children();
      auto t = store_->task(kLocalAccount, "j", id);
      if (t.ok() && t->has_value() && (*t)->state == TaskState::Completed) return **t;
      if (std::chrono::steady_clock::now() > deadline) {
        ADD_FAILURE() << "task " << id << " did not complete in time";
        return t.ok() && t->has_value() ? **t : Task{};
      }
      std::this_thread::sleep_for(50ms);
    }
  }

  /// Reaps children every 20 ms while `still` holds, for at most 2 s.
  template <class Pred>
  void reap_while(Pred still) {
    for (int i = 0; i < 100 && still(); ++i) {
      engine_->reap_children();
      std::this_thread::sleep_for(20ms);
    }
  }

  /// Kills `run`'s supervisor and its task's whole group, as a crash would, and reaps them.
  void kill_supervisor_and_task(const LocalRun& run) {
    kill(static_cast<pid_t>(run.supervisor_pid), SIGKILL);
    killpg(static_cast<pid_t>(run.pgid), SIGKILL);
    reap_while([&] { return group_alive(static_cast<pid_t>(run.pgid)); });
    engine_->reap_children();
  }

  Task wait_state(const std::string& id, TaskState state) {
    for (int i = 0; i < 400; ++i) {
      auto t = store_->task(kLocalAccount, "j", id);
      if (t.ok() && t->has_value() && (*t)->state == state) return **t;
      std::this_thread::sleep_for(25ms);
    }
    ADD_FAILURE() << "task " << id << " never reached " << to_wire(state);
    return Task{};
  }

  std::optional<LocalRun> run_of(const std::string& id) {
    auto r = store_->local_run("j", id);
    return r.ok() ? *r : std::nullopt;
  }

  std::string read(const std::string& path) {
    std::ifstream in(path);
    return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  }

  std::string dir_;
  std::unique_ptr<Store> store_;
  EngineConfig config_;
  SystemClock clock_;
  std::unique_ptr<LocalEngine> engine_;
};

}  // namespace trainyard::test
