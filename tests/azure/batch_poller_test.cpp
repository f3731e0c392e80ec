// The poller thread against the emulator: focus refreshes, the poll lock between two windows,
// throttling slowing it down, and stopping promptly.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <fstream>
#include <iterator>
#include <mutex>
#include <set>
#include <thread>

#include "sync/batch_poller.hpp"
#include "sync/batch_sync.hpp"
#include "sync/incremental_sync.hpp"
#include "sync/remote_log.hpp"
#include "sync_fixture.hpp"

namespace trainyard::batch_poller_test {
namespace {

using azuretest::SyncFixture;
using namespace std::chrono_literals;

struct Poller : ::testing::Test {
  SyncFixture f{{"--seed-tasks", "200"}};
  std::atomic<int> changes{0};
  std::mutex scopes_mu;
  std::set<std::string> scopes;  // every scope the poller said it wrote

  bool told(const std::string& scope) {
    std::lock_guard<std::mutex> g(scopes_mu);
    return scopes.count(scope) > 0;
  }

  PollerOptions fast() {
    PollerOptions o;
    o.focus_interval = 200ms;
    o.background_interval = 1s;
    o.lock_retry = 200ms;
    o.requests_per_second = 100;
    o.max_backoff = 2s;
    return o;
  }
  std::unique_ptr<BatchPoller> make(PollerOptions o) {
    BatchClientFactory factory = [this]() -> Result<std::unique_ptr<azure::BatchClient>> {
      azure::BatchClientOptions c = f.client->options();
      return std::make_unique<azure::BatchClient>(
          c, std::make_shared<azure::HttpClient>(),
          azure::shared_key_credential(f.emu.account(), f.emu.key()), f.clock);
    };
    return std::make_unique<BatchPoller>(f.emu.account(), f.dir, f.dir + "/locks", factory, o,
                                         [this](std::vector<std::string> written) {
                                           std::lock_guard<std::mutex> g(scopes_mu);
                                           scopes.insert(written.begin(), written.end());
                                           ++changes;
                                         });
  }
  template <typename Pred>
  bool eventually(Pred p, std::chrono::milliseconds limit = 15s) {
    for (auto end = std::chrono::steady_clock::now() + limit;
         std::chrono::steady_clock::now() < end; std::this_thread::sleep_for(50ms))
      if (p()) return true;
    return false;
  }
  bool has_task(const std::string& id) {
    auto t = f.store->task(f.emu.account(), "seed-sweep", id);
    return t.ok() && t->has_value();
  }
};

TEST_F(Poller, FillsAnEmptyCacheAndFollowsTheJobOnScreen) {
  auto p = make(fast());
  p->set_focus(PollFocus{false, "", false, "seed-sweep"});
  p->start();
  ASSERT_TRUE(eventually([&] { return has_task("task-0000200"); }));
  ASSERT_TRUE(f.client->add_task("seed-sweep", {{"id", "late"}, {"commandLine", "true"}}).ok());
  EXPECT_TRUE(eventually([&] { return has_task("late"); }, 5s));
  EXPECT_TRUE(eventually([&] { return f.store->nodes(f.emu.account(), "seed-gpu")->size() == 8; }));
  // The status and the change callback come at the end of a cycle, and a loaded machine may
  // fill the cache within the first one.
  EXPECT_TRUE(eventually([&] { return changes.load() > 0; }));
  EXPECT_TRUE(eventually([&] { return p->status().polling && p->status().requests > 0; }));
  // What it wrote is told by scope, so a pane re-reads only what changed under it.
  EXPECT_TRUE(eventually([&] { return told(tasks_scope("seed-sweep")); }));
  EXPECT_TRUE(eventually([&] { return told(nodes_scope("seed-gpu")); }));
  EXPECT_TRUE(eventually([&] { return told(kPoolsScope); }));
  EXPECT_FALSE(told(tasks_scope("no-such-job")));
  auto t0 = std::chrono::steady_clock::now();
  p->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s);
}

TEST_F(Poller, ReadsTheSubtasksOfTheMultiInstanceTaskOnScreen) {
  ASSERT_TRUE(f.client
                  ->add_task("seed-sweep",
                             {{"id", "mpi"},
                              {"commandLine", "true"},
                              {"multiInstanceSettings",
                               {{"numberOfInstances", 3}, {"coordinationCommandLine", "true"}}}})
                  .ok());
  auto p = make(fast());
  PollFocus focus;
  focus.job = "seed-sweep";
  focus.detail_task = "mpi";
  p->set_focus(focus);
  p->start();
  auto completed_subtasks = [&] {
    auto t = f.store->task(f.emu.account(), "seed-sweep", "mpi");
    auto subs = f.store->subtasks(f.emu.account(), "seed-sweep", "mpi");
    if (!t.ok() || !t->has_value() || (*t)->state != TaskState::Completed || !subs.ok()) return 0;
    return static_cast<int>(std::count_if(subs->begin(), subs->end(), [](const Subtask& s) {
      return s.state == TaskState::Completed;
    }));
  };
  EXPECT_TRUE(eventually([&] { return completed_subtasks() == 2; }, 30s));
  p->stop();
}

// Quitting the TUI stops its pollers: a request in flight is cancelled, not waited for.
TEST_F(Poller, StopCancelsARequestInFlight) {
  auto r = f.client->call("POST", "/__trainyard/faults", {},
                          nlohmann::json{{"spec", "latency=6000"}}.dump());
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto p = make(fast());
  p->set_focus(PollFocus{false, "", true});
  p->start();
  std::this_thread::sleep_for(500ms);  // the first request is now waiting on the server
  auto t0 = std::chrono::steady_clock::now();
  p->stop();
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 3s) << "stop waited for the slow request";
}

TEST_F(Poller, OnlyOneOfTwoWindowsPollsAndTheOtherTakesOver) {
  auto first = make(fast());
  first->start();
  ASSERT_TRUE(eventually([&] { return first->status().polling; }));
  auto second = make(fast());
  second->start();
  ASSERT_TRUE(
      eventually([&] { return second->status().cycles == 0 && second->status().holder_pid; }));
  EXPECT_FALSE(second->status().polling);
  EXPECT_EQ(second->status().holder_pid, ::getpid());
  EXPECT_EQ(second->status().requests, 0u);
  first->stop();
  EXPECT_TRUE(eventually([&] { return second->status().polling; }, 5s));
}

TEST_F(Poller, ThrottlingSlowsItDownAndCleanCyclesSpeedItUp) {
  auto p = make(fast());
  p->set_focus(PollFocus{true, "", true, "seed-sweep"});
  p->start();
  ASSERT_TRUE(eventually([&] { return has_task("task-0000200"); }));
  ASSERT_TRUE(
      f.client->call("POST", "/__trainyard/faults", {}, R"({"spec":"429=1,retry-after=0"})").ok());
  EXPECT_TRUE(eventually([&] { return p->status().backoff >= 2s; }));
  EXPECT_GT(p->status().throttled, 0u);
  ASSERT_TRUE(f.client->call("POST", "/__trainyard/faults", {}, R"({"spec":""})").ok());
  EXPECT_TRUE(eventually([&] { return p->status().backoff < 1s; }, 20s));
}

// Changes the counts by state cannot see reach the cache of a job not on screen through the
// version passes of the background rounds: new constraints (lastModified moves, the state and its
// time stay), and a deletion beside an addition that leaves every count equal.
TEST_F(Poller, ChangesThatKeepTheCountsReachTheCacheInTime) {
  ASSERT_TRUE(full_sync(*f.store, *f.client, f.scope).ok());
  SyncTarget t{*f.store, *f.client, f.emu.account(), f.clock};
  TaskQuery q{f.emu.account(), "seed-sweep", TaskState::Completed};
  auto done = f.store->tasks(q);
  ASSERT_TRUE(done.ok());
  auto gone = std::find_if(done->begin(), done->end(), [](const Task& x) {
    return x.execution_info.result == TaskResult::Success;
  });
  ASSERT_NE(gone, done->end());
  ASSERT_TRUE(f.client->call("DELETE", "/jobs/seed-sweep/tasks/" + gone->id).ok());
  ASSERT_TRUE(f.client->add_task("seed-sweep", {{"id", "newcomer"}, {"commandLine", "true"}}).ok());
  ASSERT_TRUE(eventually([&] {
    auto r = f.client->call("GET", "/jobs/seed-sweep/tasks/newcomer");
    return r.ok() && nlohmann::json::parse(r->body).value("state", "") == "completed";
  }));
  auto differ = task_counts_differ(t, "seed-sweep");
  ASSERT_TRUE(differ.ok() && !*differ) << "the counts must stay equal for this test";

  auto o = fast();
  o.deletion_interval = 2s;
  auto p = make(o);
  p->set_focus(PollFocus{});  // nothing on screen: background rounds alone
  p->start();
  const auto t0 = std::chrono::steady_clock::now();
  EXPECT_TRUE(eventually([&] { return !has_task(gone->id) && has_task("newcomer"); }, 10s));
  const std::string id = "task-0000005";
  auto put = f.client->call("PUT", "/jobs/seed-sweep/tasks/" + id, {},
                            R"({"constraints":{"maxTaskRetryCount":5}})");
  ASSERT_TRUE(put.ok()) << put.error().message;
  auto retries = [&] {
    auto task = f.store->task(f.emu.account(), "seed-sweep", id);
    return task.ok() && task->has_value() ? (*task)->constraints.max_task_retry_count : -2;
  };
  // Within a version interval and a background round or two.
  EXPECT_TRUE(eventually([&] { return retries() == 5; }, 8s));
  EXPECT_LT(std::chrono::steady_clock::now() - t0, 15s);
  p->stop();
}

TEST_F(Poller, DeletedTasksLeaveTheCacheThroughTaskCounts) {
  auto p = make(fast());
  p->set_focus(PollFocus{false, "", true, ""});  // the job is not on screen
  p->start();
  ASSERT_TRUE(eventually([&] { return has_task("task-0000007"); }));
  ASSERT_TRUE(f.client->call("DELETE", "/jobs/seed-sweep/tasks/task-0000007").ok());
  EXPECT_TRUE(eventually([&] { return !has_task("task-0000007"); }));
}

// The jobs pane's counts: a job on screen is counted again every focus interval, not only in a
// background round (at least 10 s apart), so a task added behind the cache shows up at once.
TEST_F(Poller, CountsOfTheJobsOnScreenFollowWithinFocusIntervals) {
  auto o = fast();
  o.background_interval = 3600s;
  auto p = make(o);
  PollFocus focus;
  focus.jobs = true;
  focus.jobs_on_screen = {"seed-sweep"};
  p->set_focus(focus);
  p->start();
  ASSERT_TRUE(eventually([&] { return has_task("task-0000200"); }));
  ASSERT_TRUE(
      f.client->add_task("seed-sweep", {{"id", "late1"}, {"commandLine", "sleep 30"}}).ok());
  ASSERT_TRUE(
      f.client->add_task("seed-sweep", {{"id", "late2"}, {"commandLine", "sleep 30"}}).ok());
  auto counted = [&] {
    auto c = f.store->task_counts(f.emu.account(), "seed-sweep");
    if (!c.ok()) return int64_t{-1};
    int64_t sum = 0;
    for (auto s :
         {TaskState::Active, TaskState::Preparing, TaskState::Running, TaskState::Completed})
      sum += (*c)[s];
    return sum;
  };
  // 25 focus intervals, well short of the next background round (10 s at the least).
  EXPECT_TRUE(eventually([&] { return counted() == 202; }, 5s)) << counted();
  p->stop();
}

// With a burn rate on screen (the Jobs pane's cost line) node counts are compared every focus
// interval: a pool's changed nodes reach the cache well before the next background round.
TEST_F(Poller, NodesFollowWithinFocusIntervalsWhileABurnRateIsOnScreen) {
  auto o = fast();
  o.background_interval = 3600s;
  auto p = make(o);
  PollFocus focus;
  focus.jobs = true;
  focus.node_counts = true;
  p->set_focus(focus);
  p->start();
  auto nodes = [&] {
    auto n = f.store->nodes(f.emu.account(), "seed-gpu");
    return n.ok() ? n->size() : size_t{0};
  };
  ASSERT_TRUE(eventually([&] { return nodes() == 8; }));
  auto resized = f.client->call("POST", "/pools/seed-gpu/resize", {},
                                nlohmann::json{{"targetDedicatedNodes", 4}}.dump());
  ASSERT_TRUE(resized.ok()) << resized.error().message;
  // Well short of the next background round (10 s at the least with jobs on screen).
  EXPECT_TRUE(eventually([&] { return nodes() < 8; }, 6s)) << nodes();
  p->stop();
}

// A running task whose row is on screen has its stdout read into metrics at the focus interval,
// with its job neither pinned nor its log open.
TEST_F(Poller, ARunningTaskOnScreenGetsItsMetricsWithoutPinningOrItsLog) {
  const std::string loop =
      "i=0; while [ $i -lt 40 ]; do i=$((i+1)); echo \"epoch $i loss=0.$i\"; sleep 0.2; done";
  ASSERT_TRUE(f.client->add_task("seed-sweep", {{"id", "live"}, {"commandLine", loop}}).ok());
  auto p = make(fast());
  PollFocus focus;
  focus.job = "seed-sweep";
  focus.tasks_on_screen = {"task-0000001", "live"};
  p->set_focus(focus);
  p->start();
  auto points = [&] {
    auto pts = f.store->metric_points(f.emu.account(), "seed-sweep", "live", "loss");
    return pts.ok() ? pts->size() : 0u;
  };
  auto running = [&] {
    auto t = f.store->task(f.emu.account(), "seed-sweep", "live");
    return t.ok() && t->has_value() && (*t)->state == TaskState::Running;
  };
  ASSERT_TRUE(eventually(running, 20s));
  EXPECT_TRUE(eventually([&] { return points() >= 2 && running(); }, 20s)) << points();
  p->stop();
}

// A task of the job on screen that completed is read to its end in the background, though
// nobody opened its log: its metrics are its last lines.
TEST_F(Poller, ACompletedTaskOfTheJobOnScreenHasItsLogsReadToTheEnd) {
  auto job = f.client->call(
      "POST", "/jobs", {},
      nlohmann::json{{"id", "fresh"}, {"poolInfo", {{"poolId", "seed-gpu"}}}}.dump());
  ASSERT_TRUE(job.ok()) << job.error().message;
  const std::string cmd = "sh -c 'echo loss=0.9; sleep 1; echo loss=0.5; echo loss=0.25'";
  ASSERT_TRUE(f.client->add_task("fresh", {{"id", "fin"}, {"commandLine", cmd}}).ok());
  auto p = make(fast());
  PollFocus focus;
  focus.job = "fresh";
  p->set_focus(focus);
  p->start();
  auto values = [&] {
    std::vector<double> v;
    auto pts = f.store->metric_points(f.emu.account(), "fresh", "fin", "loss");
    if (pts.ok())
      for (const auto& pt : *pts) v.push_back(pt.value);
    return v;
  };
  EXPECT_TRUE(eventually([&] { return values() == std::vector<double>{0.9, 0.5, 0.25}; }, 30s));
  // stdout.txt is read first, then stderr.txt: both end up marked read to their end.
  EXPECT_TRUE(eventually([&] {
    auto out = f.store->task_log_final(f.emu.account(), "fresh", "fin", "stdout.txt");
    auto err = f.store->task_log_final(f.emu.account(), "fresh", "fin", "stderr.txt");
    return out.ok() && *out && err.ok() && *err;
  }));
  EXPECT_TRUE(told(tasks_scope("fresh")));
  p->stop();
}

// Two windows on one data directory: the second does not poll, yet the log it shows is
// followed into the cache by the first, which was told through the store.
TEST_F(Poller, TheLogAWindowThatDoesNotPollShowsIsFollowedByTheOneThatDoes) {
  auto job = f.client->call(
      "POST", "/jobs", {},
      nlohmann::json{{"id", "shared"}, {"poolInfo", {{"poolId", "seed-gpu"}}}}.dump());
  ASSERT_TRUE(job.ok()) << job.error().message;
  ASSERT_TRUE(
      f.client
          ->add_task("shared", {{"id", "long"}, {"commandLine", "sh -c 'echo first; sleep 60'"}})
          .ok());
  auto first = make(fast());
  PollFocus jobs;
  jobs.jobs = true;
  first->set_focus(jobs);
  first->start();
  ASSERT_TRUE(eventually([&] { return first->status().polling; }));
  auto o = fast();
  o.pid = ::getppid();  // another live process: a second window
  auto second = make(o);
  PollFocus log;
  log.job = "shared";
  log.log_task = "long";
  log.log_file = "stdout.txt";
  second->set_focus(log);
  second->start();
  auto copy = remote_cache_path(f.dir, {f.emu.account(), "shared", "long", "", "", "stdout.txt"});
  ASSERT_TRUE(copy);
  auto copied = [&] {
    std::ifstream in(*copy);
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return text;
  };
  EXPECT_TRUE(eventually([&] { return copied() == "first\n"; }, 20s)) << copied();
  EXPECT_FALSE(second->status().polling);
  ASSERT_EQ(f.store->watched_logs(f.emu.account())->size(), 1u);
  second->stop();  // a window that ends forgets what it showed
  EXPECT_TRUE(f.store->watched_logs(f.emu.account())->empty());
  first->stop();
}

}  // namespace
}  // namespace trainyard::batch_poller_test
