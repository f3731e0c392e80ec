// `trainyard logs --account A …` against `trainyard emulator`: printing, following to completion,
// the cached copy, node files and the errors.
#include <gtest/gtest.h>

#include <functional>
#include <future>
#include <thread>

#include <nlohmann/json.hpp>

#include "../azure/emulator_client.hpp"
#include "../azure/emulator_process.hpp"
#include "azure/batch_client.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest::logs_remote_test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

// A Cli home plus an emulator the `az batch` variables point at, and a client to fill it.
class LogsRemote : public Cli {
 protected:
  LogsRemote() { client_ = azuretest::emulator_client(emu_, clock_); }

  /// trainyard with `--data-dir` and the emulator's account in the environment.
  Outcome tyb(std::vector<std::string> args) {
    args.insert(args.begin(), {"--data-dir", data()});
    return bare(args,
                {"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=" + emu_.endpoint(),
                 "AZURE_BATCH_ACCESS_KEY=" + emu_.key()});
  }

  void post(const std::string& path, const json& body) {
    auto r = client_->call("POST", path, {}, body.dump(), {}, false);
    ASSERT_TRUE(r.ok()) << path << ": " << r.error().message;
  }
  /// Pool `p` of one node and job `j` on it.
  void pool_and_job(json extra = json::object()) {
    json pool{{"id", "p"}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", 1}};
    pool.update(extra);
    post("/pools", pool);
    post("/jobs", {{"id", "j"}, {"poolInfo", {{"poolId", "p"}}}});
  }
  void task(const std::string& id, const std::string& command) {
    auto r = client_->add_task("j", {{"id", id}, {"commandLine", command}});
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  bool wait_for(const std::function<bool()>& fn) {
    for (auto end = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(100ms)) {
      if (fn()) return true;
    }
    return false;
  }
  bool completed(const std::string& id) {
    auto ts = client_->tasks("j");
    if (!ts) return false;
    for (const auto& t : *ts)
      if (t.id == id) return t.state == TaskState::Completed;
    return false;
  }
  std::string account() const { return emu_.account(); }
  /// One figure of the emulator's counters for a path pattern ("GET /jobs/{}/tasks/{}").
  json served(const std::string& pattern, const std::string& figure) {
    return azuretest::served_paths(*client_).value(pattern, json::object()).value(figure, json(0));
  }

  azuretest::EmulatorProcess emu_;
  SystemClock clock_;
  std::unique_ptr<azure::BatchClient> client_;
};

TEST_F(LogsRemote, PrintsATaskFromItsCachedCopy) {
  pool_and_job();
  task("t", R"(/bin/sh -c 'printf "\033[2Jhello\n"; echo oops >&2')");
  ASSERT_TRUE(wait_for([&] { return completed("t"); }));
  auto r = tyb({"logs", "--account", account(), "j/t"});
  ASSERT_EQ(r.code, 0) << r.err;
  // Sanitized: the escape sequence is shown inert, never sent to the terminal.
  EXPECT_EQ(r.out.find('\x1b'), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("hello\n"), std::string::npos) << r.out;
  EXPECT_EQ(tyb({"logs", "--account", account(), "--raw", "j/t"}).out, "\x1b[2Jhello\n");
  EXPECT_EQ(tyb({"logs", "--account", account(), "--stderr", "j/t"}).out, "oops\n");
  EXPECT_EQ(read_file(data() + "/remote/" + account() + "/jobs/j/t/stdout.txt"), "\x1b[2Jhello\n");
  auto offline = tyb({"logs", "--account", account(), "--offline", "j/t"});
  EXPECT_EQ(offline.code, 0) << offline.err;
  EXPECT_EQ(offline.out, r.out);
}

TEST_F(LogsRemote, FollowsATaskUntilItCompletes) {
  pool_and_job();
  task("slow", "/bin/sh -c 'for i in 1 2 3; do echo \"epoch $i loss=0.$i\"; sleep 1; done'");
  auto r = tyb({"logs", "--account", account(), "-f", "j/slow"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "epoch 1 loss=0.1\nepoch 2 loss=0.2\nepoch 3 loss=0.3\n");
  EXPECT_TRUE(completed("slow"));
  // -f refreshed the task into the cache.
  auto tasks = tyb({"ls", "tasks", "--account", account(), "--job", "j", "--offline", "--json"});
  ASSERT_EQ(tasks.code, 0) << tasks.err;
  auto list = json::parse(tasks.out, nullptr, false);
  ASSERT_TRUE(list.is_array()) << tasks.out;
  ASSERT_EQ(list.size(), 1u);
  EXPECT_EQ(list[0].value("state", ""), "completed");
}

// Followed from before the task has a node (its pool has none yet): the misses read no byte of
// the file, and each byte of it is fetched once.
TEST_F(LogsRemote, FollowingFromBeforeTheTaskStartsFetchesEachByteOnce) {
  pool_and_job({{"targetDedicatedNodes", 0}});
  task("late", "/bin/sh -c 'echo \"epoch 1 loss=0.1\"; sleep 1; echo \"epoch 2 loss=0.2\"'");
  auto follow = std::async(std::launch::async, [&] {
    return tyb({"logs", "--account", account(), "-f", "j/late"});
  });
  std::this_thread::sleep_for(2s);  // two misses at least: one read a second
  post("/pools/p/resize", {{"targetDedicatedNodes", 1}});
  auto r = follow.get();
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string out = "epoch 1 loss=0.1\nepoch 2 loss=0.2\n";  // 17 + 17 bytes
  EXPECT_EQ(r.out, out);
  EXPECT_GE(served("HEAD /jobs/{}/tasks/{}/files/{}", "statuses").value("404", 0), 2)
      << "the task was followed before it had a node";
  EXPECT_EQ(served("GET /jobs/{}/tasks/{}/files/{}", "bytes"), 34);
  EXPECT_EQ(served("HEAD /jobs/{}/tasks/{}/files/{}", "bytes"), 0);
}

TEST_F(LogsRemote, PrintsANodeFile) {
  pool_and_job({{"startTask",
                 {{"commandLine", "/bin/sh -c 'echo no GPU driver >&2; exit 1'"},
                  {"waitForSuccess", true}}}});
  std::string node;
  ASSERT_TRUE(wait_for([&] {
    auto ns = client_->nodes("p");
    if (!ns || ns->empty() || ns->front().state != NodeState::StartTaskFailed) return false;
    node = ns->front().id;
    return true;
  }));
  auto r = tyb({"logs", "--account", account(), "--node", "p/" + node, "startup/stderr.txt"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out, "no GPU driver\n");
}

TEST_F(LogsRemote, ErrorsAreOneLine) {
  pool_and_job();
  auto missing = tyb({"logs", "--account", account(), "j/nope"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_EQ(lines_of(missing.err).size(), 1u) << missing.err;
  EXPECT_NE(missing.err.find("TaskNotFound"), std::string::npos) << missing.err;
  for (const auto& args : std::vector<std::vector<std::string>>{
           {"logs", "--account", account(), "--node", "p/n", "../../etc/passwd"},
           {"logs", "--account", account(), "j"},
           {"logs", "--account", account(), "--offline", "-f", "j/t"},
           {"logs", "--account", "nosuch", "j/t"},
           {"logs", "--node", "p/n", "startup/stderr.txt"}}) {
    auto r = tyb(args);
    EXPECT_EQ(r.code, 2) << args.back() << ": " << r.err;
    EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  }
  auto nothing = tyb({"logs", "--account", account(), "--offline", "j/never"});
  EXPECT_EQ(nothing.code, 1);
  EXPECT_EQ(lines_of(nothing.err).size(), 1u) << nothing.err;
}

}  // namespace
}  // namespace trainyard::clitest::logs_remote_test
