// `trainyard sync --job` against an emulator: the first pass lists every task, the next ones only
// what changed (and the deleted tasks, found by their counts), `--full` every task again.
#include <algorithm>
#include <memory>
#include <set>
#include <string>
#include <vector>

#include "../azure/emulator_client.hpp"
#include "../azure/emulator_process.hpp"
#include "azure/batch_client.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest::sync_incremental_test {
namespace {

constexpr const char* kJob = "seed-sweep";

// A home and an emulator seeded with `tasks` completed tasks of job seed-sweep (1 in 20 failed).
class SyncIncremental : public Cli {
 protected:
  explicit SyncIncremental(int tasks = 2000)
      : emu_({"--seed-tasks", std::to_string(tasks)}),
        client_(azuretest::emulator_client(emu_, clock_)) {}

  Outcome tyb(std::vector<std::string> args) {
    args.insert(args.begin(), {"--data-dir", data()});
    return run_process(
        TRAINYARD_BIN, args,
        with({"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=" + emu_.endpoint(),
              "AZURE_BATCH_ACCESS_KEY=" + emu_.key()}),
        300s);
  }

  // `sync --account A --job seed-sweep --json [extra]`: its figures.
  json sync(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"sync", "--account", emu_.account(), "--job", kJob, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = tyb(args);
    EXPECT_EQ(r.code, 0) << r.err;
    auto lines = lines_of(r.out);
    if (lines.empty()) return json::object();
    return json::parse(lines.back());
  }

  // The cached tasks (not refreshed): id -> state.
  std::map<std::string, std::string> cached_states() {
    auto r =
        tyb({"ls", "tasks", "--account", emu_.account(), "--job", kJob, "--offline", "--json"});
    EXPECT_EQ(r.code, 0) << r.err;
    std::map<std::string, std::string> out;
    for (const auto& t : json::parse(r.out)) out[t.at("id")] = t.at("state");
    return out;
  }

  // The first `n` failed tasks of the job, by id.
  std::vector<std::string> failed_tasks(size_t n) {
    auto tasks = client_->tasks(kJob, "", "id,executionInfo");
    EXPECT_TRUE(tasks.ok());
    std::vector<std::string> ids;
    for (const auto& t : tasks.ok() ? *tasks : std::vector<Task>{})
      if (t.execution_info.result == TaskResult::Failure && ids.size() < n) ids.push_back(t.id);
    return ids;
  }

  void post(const std::string& path, const std::string& body) {
    auto r = client_->call("POST", path, {}, body, {{"Content-Type", "application/json"}}, false);
    ASSERT_TRUE(r.ok()) << path << ": " << r.error().message;
  }

  std::vector<std::string> with(std::vector<std::string> extra) {
    std::vector<std::string> env = environment();
    env.insert(env.end(), extra.begin(), extra.end());
    return env;
  }

  azuretest::EmulatorProcess emu_;
  SystemClock clock_;
  std::unique_ptr<azure::BatchClient> client_;
};

class SyncIncremental20k : public SyncIncremental {
 protected:
  SyncIncremental20k() : SyncIncremental(20000) {}
};

TEST_F(SyncIncremental20k, AHundredChangedTasksCostUnderFivePercentOfTheFirstPass) {
  auto first = sync();
  EXPECT_EQ(first.value("pass", ""), "full");
  EXPECT_EQ(first.value("entities", 0), 20001);  // the job and its tasks
  // Reactivated in a disabled job, the tasks stay active: nothing else changes meanwhile.
  post("/jobs/seed-sweep/disable", R"({"disableTasks":"wait"})");
  auto changed = failed_tasks(100);
  ASSERT_EQ(changed.size(), 100u);
  for (const auto& id : changed) post("/jobs/seed-sweep/tasks/" + id + "/reactivate", "");

  auto second = sync();
  EXPECT_EQ(second.value("pass", ""), "incremental");
  EXPECT_EQ(second.value("entities", 0), 101);  // the job and the 100 tasks
  EXPECT_EQ(second.value("deleted", -1), 0);
  EXPECT_LE(second.value("bytes", 0.0), 0.05 * first.value("bytes", 0.0));
  auto states = cached_states();
  EXPECT_EQ(states.size(), 20000u);
  std::set<std::string> active;
  for (const auto& [id, state] : states)
    if (state == "active") active.insert(id);
  EXPECT_EQ(active, std::set<std::string>(changed.begin(), changed.end()));
}

TEST_F(SyncIncremental, ADeletedTaskLeavesTheCache) {
  ASSERT_EQ(sync().value("pass", ""), "full");
  auto gone = client_->call("DELETE", "/jobs/seed-sweep/tasks/task-0000042");
  ASSERT_TRUE(gone.ok()) << gone.error().message;
  auto second = sync();
  EXPECT_EQ(second.value("pass", ""), "incremental");
  EXPECT_EQ(second.value("deleted", 0), 1);
  auto states = cached_states();
  EXPECT_EQ(states.size(), 1999u);
  EXPECT_EQ(states.count("task-0000042"), 0u);
}

TEST_F(SyncIncremental, FullListsEveryTaskAgain) {
  auto first = sync();
  auto again = sync({"--full"});
  EXPECT_EQ(again.value("pass", ""), "full");
  EXPECT_EQ(again.value("entities", 0), 2001);
  EXPECT_EQ(again.value("bytes", 0), first.value("bytes", 0));
}

TEST_F(SyncIncremental, TheSummaryLineSaysWhichPassItWas) {
  auto first = tyb({"sync", "--account", emu_.account(), "--job", kJob});
  ASSERT_EQ(first.code, 0) << first.err;
  EXPECT_EQ(lines_of(first.out).back().rfind("synced " + emu_.account() +
                                                 "/seed-sweep: full pass, "
                                                 "2001 entities, 0 deleted, ",
                                             0),
            0u)
      << first.out;
  auto second = tyb({"sync", "--account", emu_.account(), "--job", kJob});
  EXPECT_EQ(lines_of(second.out)
                .back()
                .rfind("synced " + emu_.account() +
                           "/seed-sweep: incremental pass, 1 entities, 0 deleted, ",
                       0),
            0u)
      << second.out;
}

}  // namespace
}  // namespace trainyard::clitest::sync_incremental_test
