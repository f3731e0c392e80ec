// The poller under 30% faults of every kind while the account changes under it: once the faults
// stop and it has settled, the cache must equal the service, entity by entity and field by field.
// This is the integration check that a retry, a half-written page, a lost answer or a pruning
// pass racing a mutation never leaves the cache wrong for good.
#include <gtest/gtest.h>

#include <atomic>
#include <map>
#include <mutex>
#include <set>
#include <thread>

#include <fmt/format.h>

#include "entity_diff.hpp"
#include "sync/batch_poller.hpp"
#include "sync/incremental_sync.hpp"
#include "sync_fixture.hpp"

namespace trainyard::fault_equality_test {
namespace {

using azuretest::Diffs;
using azuretest::expect_same;
using azuretest::SyncFixture;
using json = nlohmann::json;
using namespace std::chrono_literals;
using Steady = std::chrono::steady_clock;

constexpr const char* kFaults =
    "429=0.08,503=0.08,500=0.06,reset=0.04,truncate=0.04,retry-after=0,seed=11";
constexpr auto kDeletionInterval = 400ms;

struct FaultEquality : ::testing::Test {
  SyncFixture f{{"--seed-tasks", "2000"}};
  // Mutations go through data calls, which the faults hit too: many fast retries, and each
  // mutation is checked afterwards (a lost answer may hide one that landed, or the reverse).
  std::unique_ptr<azure::BatchClient> mut = [this] {
    azure::BatchClientOptions o = f.client->options();
    o.retry.max_retries = 40;
    o.retry.base = 5ms;
    o.retry.cap = 20ms;
    return std::make_unique<azure::BatchClient>(
        o, std::make_shared<azure::HttpClient>(),
        azure::shared_key_credential(f.emu.account(), f.emu.key()), f.clock);
  }();
  std::vector<std::string> log;  // what was done, for the failure message

  template <typename Pred>
  bool eventually(Pred p, std::chrono::milliseconds limit = 20s) {
    for (auto end = Steady::now() + limit; Steady::now() < end; std::this_thread::sleep_for(50ms))
      if (p()) return true;
    return false;
  }

  void set_faults(const std::string& spec) {
    // The control endpoint is never subject to faults.
    auto r = f.client->call("POST", "/__trainyard/faults", {}, json{{"spec", spec}}.dump());
    ASSERT_TRUE(r.ok()) << r.error().message;
  }

  // GET `path`: the body, nullopt on 404; other failures are retried until they stop.
  std::optional<json> get(const std::string& path) {
    for (int i = 0; i < 50; ++i) {
      auto r = mut->call("GET", path);
      if (r) {
        auto j = json::parse(r->body, nullptr, false);
        if (!j.is_discarded()) return j;
      } else if (r.error().kind == ErrorKind::NotFound) {
        return std::nullopt;
      }
      std::this_thread::sleep_for(20ms);
    }
    ADD_FAILURE() << "GET " << path << " keeps failing";
    return std::nullopt;
  }

  // Repeats `act` until `landed` says the service shows its effect.
  template <typename Act, typename Landed>
  void land(const std::string& what, Act act, Landed landed) {
    for (int i = 0; i < 20; ++i) {
      (void)act();  // its answer may be lost or a retry's 404/409: `landed` decides
      if (landed()) {
        log.push_back(what);
        return;
      }
      std::this_thread::sleep_for(20ms);
    }
    ADD_FAILURE() << what << " never landed";
  }

  std::set<std::string> task_ids(const std::string& job) {
    for (int i = 0; i < 50; ++i) {
      std::set<std::string> ids;
      auto ok = mut->list("/jobs/" + job + "/tasks", {{"$select", "id"}},
                          [&](const azure::ListPage& page) -> Result<void> {
                            for (const auto& t : page.items) ids.insert(t.value("id", ""));
                            return {};
                          });
      if (ok) return ids;
    }
    ADD_FAILURE() << "cannot list the tasks of " << job;
    return {};
  }

  void add_pool(const std::string& id, int nodes, int slots) {
    json body{{"id", id},
              {"vmSize", "standard_d2s_v3"},
              {"targetDedicatedNodes", nodes},
              {"taskSlotsPerNode", slots},
              {"virtualMachineConfiguration",
               {{"imageReference",
                 {{"publisher", "canonical"}, {"offer", "ubuntu"}, {"sku", "22_04-lts"}}},
                {"nodeAgentSKUId", "batch.node.ubuntu 22.04"}}}};
    land(
        "add pool " + id, [&] { return mut->call("POST", "/pools", {}, body.dump(), {}, false); },
        [&] { return get("/pools/" + id).has_value(); });
  }

  void add_job(const std::string& id, const std::string& pool) {
    json body{{"id", id},
              {"displayName", "job " + id},
              {"priority", 7},
              {"usesTaskDependencies", true},
              {"poolInfo", {{"poolId", pool}}},
              {"metadata", {{{"name", "owner"}, {"value", "fault-equality"}}}}};
    land(
        "add job " + id, [&] { return mut->call("POST", "/jobs", {}, body.dump(), {}, false); },
        [&] { return get("/jobs/" + id).has_value(); });
  }

  // Adds `tasks` (a collection at a time), re-adding whichever a lost answer left out.
  void add_tasks(const std::string& job, const std::vector<json>& tasks) {
    for (int round = 0; round < 20; ++round) {
      auto have = task_ids(job);
      std::vector<json> missing;
      for (const auto& t : tasks)
        if (!have.count(t["id"].get<std::string>())) missing.push_back(t);
      if (missing.empty()) {
        log.push_back(fmt::format("add {} tasks to {}", tasks.size(), job));
        return;
      }
      for (size_t i = 0; i < missing.size(); i += 100) {
        json body{{"value", json::array()}};
        for (size_t k = i; k < missing.size() && k < i + 100; ++k)
          body["value"].push_back(missing[k]);
        (void)mut->call("POST", "/jobs/" + job + "/addtaskcollection", {}, body.dump(), {}, false);
      }
    }
    ADD_FAILURE() << "tasks of " << job << " never all landed";
  }

  void delete_task(const std::string& job, const std::string& id) {
    const std::string path = "/jobs/" + job + "/tasks/" + id;
    land(
        "delete task " + job + "/" + id, [&] { return mut->call("DELETE", path); },
        [&] { return !get(path).has_value(); });
  }

  // What the service has, read without faults and without $select.
  struct Truth {
    std::vector<Pool> pools;
    std::map<std::string, std::vector<Node>> nodes;
    std::vector<Job> jobs;
    std::map<std::string, std::vector<Task>> tasks;
  };
  Truth truth() {
    Truth t;
    auto pools = f.client->pools();
    EXPECT_TRUE(pools.ok()) << pools.error().message;
    if (pools) t.pools = *pools;
    for (const auto& p : t.pools) {
      auto n = f.client->nodes(p.id);
      EXPECT_TRUE(n.ok()) << n.error().message;
      if (n) t.nodes[p.id] = *n;
    }
    auto jobs = f.client->jobs();
    EXPECT_TRUE(jobs.ok()) << jobs.error().message;
    if (jobs) t.jobs = *jobs;
    for (const auto& j : t.jobs) {
      auto ts = f.client->tasks(j.id);
      EXPECT_TRUE(ts.ok()) << ts.error().message;
      if (ts) t.tasks[j.id] = *ts;
    }
    return t;
  }

  // Nothing running, nothing allocating, nothing being deleted: a state the cache can equal.
  bool quiet() {
    auto pools = f.client->pools();
    if (!pools) return false;
    for (const auto& p : *pools) {
      if (p.state != PoolState::Active || p.allocation_state != AllocationState::Steady)
        return false;
      auto nodes = f.client->nodes(p.id);
      if (!nodes) return false;
      for (const auto& n : *nodes)
        if (n.state != NodeState::Idle) return false;
    }
    auto jobs = f.client->jobs();
    if (!jobs) return false;
    for (const auto& j : *jobs) {
      if (j.state != JobState::Active && j.state != JobState::Completed) return false;
      auto counts = f.client->call("GET", "/jobs/" + j.id + "/taskcounts");
      if (!counts) return false;
      auto c = azure::parse_task_counts(counts->body);
      if (!c || c->active || c->running) return false;
    }
    return true;
  }

  Diffs compare(const Truth& t) {
    Diffs d;
    const auto& acct = f.emu.account();
    auto cached_pools = f.store->pools(acct);
    if (!cached_pools) {
      d.note("store: " + cached_pools.error().message);
      return d;
    }
    std::map<std::string, Pool> cp;
    for (const auto& p : *cached_pools) cp[p.id] = p;
    for (const auto& p : t.pools) {
      auto it = cp.find(p.id);
      if (it == cp.end()) {
        d.note("pool " + p.id + " missing from the cache");
        continue;
      }
      expect_same(it->second, p, d);
      cp.erase(it);
      auto cached_nodes = f.store->nodes(acct, p.id);
      std::map<std::string, Node> cn;
      if (cached_nodes)
        for (const auto& n : *cached_nodes) cn[n.id] = n;
      auto service_nodes = t.nodes.find(p.id);
      if (service_nodes == t.nodes.end()) continue;
      for (const auto& n : service_nodes->second) {
        auto nit = cn.find(n.id);
        if (nit == cn.end()) {
          d.note("node " + p.id + "/" + n.id + " missing from the cache");
          continue;
        }
        expect_same(nit->second, n, p.task_slots_per_node, d);
        cn.erase(nit);
      }
      for (const auto& [id, n] : cn) d.note("node " + p.id + "/" + id + " cached but gone");
    }
    for (const auto& [id, p] : cp) {
      d.note("pool " + id + " cached but gone");
      // Its nodes would linger too; delete_pool removes them with it.
      auto nodes = f.store->nodes(acct, id);
      if (nodes && !nodes->empty()) d.note("pool " + id + " still has cached nodes");
    }

    auto cached_jobs = f.store->jobs(acct);
    if (!cached_jobs) {
      d.note("store: " + cached_jobs.error().message);
      return d;
    }
    std::map<std::string, Job> cj;
    for (const auto& j : *cached_jobs) cj[j.id] = j;
    std::set<std::string> service_jobs;
    for (const auto& j : t.jobs) {
      service_jobs.insert(j.id);
      auto it = cj.find(j.id);
      if (it == cj.end()) {
        d.note("job " + j.id + " missing from the cache");
        continue;
      }
      expect_same(it->second, j, d);
      cj.erase(it);
      TaskQuery q;
      q.account = acct;
      q.job = j.id;
      auto cached_tasks = f.store->tasks(q);
      std::map<std::string, Task> ct;
      if (cached_tasks)
        for (const auto& task : *cached_tasks) ct[task.id] = task;
      auto service_tasks = t.tasks.find(j.id);
      if (service_tasks == t.tasks.end()) continue;
      for (const auto& task : service_tasks->second) {
        auto tit = ct.find(task.id);
        if (tit == ct.end()) {
          d.note("task " + j.id + "/" + task.id + " missing from the cache");
          continue;
        }
        expect_same(tit->second, task, d);
        ct.erase(tit);
      }
      for (const auto& [id, task] : ct) d.note("task " + j.id + "/" + id + " cached but gone");
    }
    for (const auto& [id, j] : cj) d.note("job " + id + " cached but gone");
    // Tasks whose job row is gone must not linger either (the UI counts them per account).
    TaskQuery all;
    all.account = acct;
    if (auto every = f.store->tasks(all))
      for (const auto& task : *every)
        if (!service_jobs.count(task.job_id))
          d.note("task " + task.job_id + "/" + task.id + " cached under a job that is gone");
    return d;
  }

  // Sync marks (a row's age and last error) of pools and jobs the service no longer has: a 404
  // on a pool's nodes removes the pool with its mark, as one on a job's tasks does for the job.
  Diffs stale_marks(const Truth& t) {
    Diffs d;
    std::set<std::string> scopes{kPoolsScope, kJobsScope};
    for (const auto& p : t.pools) scopes.insert(nodes_scope(p.id));
    for (const auto& j : t.jobs) {
      scopes.insert(tasks_scope(j.id));
      scopes.insert(versions_scope(j.id));
    }
    auto marks = f.store->sync_marks(f.emu.account());
    if (!marks) d.note("store: " + marks.error().message);
    for (const auto& m : marks ? *marks : std::vector<SyncMark>{})
      if (!scopes.count(m.scope))
        d.note("sync mark " + m.scope + " of something gone (error: " + m.error + ")");
    return d;
  }
};

json work_task(int i) {
  // Real short commands; some fail with exit 3 and are retried once, some wait on another.
  const bool fails = i % 10 == 3;
  json t{{"id", fmt::format("w-{:04}", i)},
         {"displayName", fmt::format("work #{}", i)},
         {"commandLine",
          fails ? "/bin/sh -c 'echo x; sleep 0.1; exit 3'" : "/bin/sh -c 'echo x; sleep 0.1'"},
         {"environmentSettings",
          {{{"name", "STEP"}, {"value", std::to_string(i)}}, {{"name", "MODE"}, {"value", "ft"}}}},
         {"constraints", {{"maxWallClockTime", "PT10M"}, {"maxTaskRetryCount", fails ? 1 : 0}}}};
  if (i % 25 == 1 && i > 1) t["dependsOn"] = {{"taskIds", {fmt::format("w-{:04}", i - 1)}}};
  if (i % 25 == 1 && i > 1) t["displayName"] = fmt::format("work #{} (after {})", i, i - 1);
  return t;
}

TEST_F(FaultEquality, TheCacheEqualsTheServiceAfterFaultsAndMutations) {
  const auto t_start = Steady::now();
  // The account before the poller starts: a pool of 4 nodes × 4 slots and a job of 200 tasks
  // that really run, so states keep changing while the poller works.
  add_pool("work", 4, 4);
  add_job("work", "work");
  {
    std::vector<json> tasks;
    for (int i = 0; i < 200; ++i) tasks.push_back(work_task(i));
    add_tasks("work", tasks);
  }
  add_job("ending", "work");
  add_tasks("ending", {json{{"id", "long-1"}, {"commandLine", "/bin/sh -c 'sleep 30'"}},
                       json{{"id", "long-2"}, {"commandLine", "/bin/sh -c 'sleep 30'"}}});
  add_job("doomed", "work");
  {
    std::vector<json> tasks;
    for (int i = 0; i < 20; ++i)
      tasks.push_back({{"id", fmt::format("d-{:02}", i)}, {"commandLine", "true"}});
    add_tasks("doomed", tasks);
  }

  set_faults(kFaults);
  const auto t_faults_on = Steady::now();

  PollerOptions o;
  o.focus_interval = 200ms;
  o.background_interval = 1s;
  o.deletion_interval = kDeletionInterval;
  o.lock_retry = 200ms;
  o.requests_per_second = 500;
  o.burst = 100;
  // Backoff after throttling stays short, so the test stays short; its growth is tested elsewhere.
  o.max_backoff = 100ms;
  // Few retries: some steps fail for good under 30% faults, which is the point.
  BatchClientFactory factory = [this]() -> Result<std::unique_ptr<azure::BatchClient>> {
    azure::BatchClientOptions c = f.client->options();
    c.retry.max_retries = 2;
    c.retry.base = 5ms;
    c.retry.cap = 20ms;
    return std::make_unique<azure::BatchClient>(
        c, std::make_shared<azure::HttpClient>(),
        azure::shared_key_credential(f.emu.account(), f.emu.key()), f.clock);
  };
  // f.dir holds the fixture's cache.db: the poller writes where the test reads.
  BatchPoller poller(f.emu.account(), f.dir, f.dir + "/locks", factory, o,
                     [](std::vector<std::string>) {});
  poller.start();

  // A watcher: every status while it runs, to find a poller that reports something other than
  // the service's faults (a store error, a parse error, a thrown exception) or stops polling.
  std::atomic<bool> watching{true};
  std::set<std::string> errors;
  std::mutex errors_mu;
  std::atomic<bool> lost_lock{false};
  std::thread watcher([&] {
    while (watching) {
      auto s = poller.status();
      if (s.cycles > 0 && !s.polling) lost_lock = true;
      if (!s.last_error.empty()) {
        std::lock_guard g(errors_mu);
        errors.insert(s.last_error);
      }
      std::this_thread::sleep_for(20ms);
    }
  });

  // The UI moving between panes while everything happens.
  const std::vector<PollFocus> views = {
      {true, "", false, ""},          {false, "work", false, ""},
      {false, "seed-gpu", false, ""}, {false, "", true, ""},
      {false, "", false, "work"},     {false, "", false, "seed-sweep"},
      {false, "", false, "ending"},   {false, "", false, "doomed"},
      {true, "", true, "work"},       {false, "seed-cpu", false, ""},
  };
  std::atomic<bool> browsing{true};
  std::thread ui([&] {
    for (size_t i = 0; browsing; ++i) {
      poller.set_focus(views[i % views.size()]);
      for (int k = 0; k < 8 && browsing; ++k) std::this_thread::sleep_for(50ms);
    }
  });
  // A failed ASSERT returns early: the threads must still end before they are destroyed.
  struct Joiner {
    std::atomic<bool>& flag;
    std::thread& thread;
    ~Joiner() {
      flag = false;
      if (thread.joinable()) thread.join();
    }
  } join_watcher{watching, watcher}, join_ui{browsing, ui};

  // Mutations, spaced so the poller sees the states in between.
  auto pause = [] { std::this_thread::sleep_for(500ms); };
  pause();
  land(
      "delete job doomed", [&] { return mut->call("DELETE", "/jobs/doomed"); },
      [&] {
        auto j = get("/jobs/doomed");
        return !j || j->value("state", "") == "deleting";
      });
  pause();
  land(
      "terminate job ending", [&] { return mut->call("POST", "/jobs/ending/terminate", {}, "{}"); },
      [&] {
        auto j = get("/jobs/ending");
        return j &&
               (j->value("state", "") == "terminating" || j->value("state", "") == "completed");
      });
  {
    std::vector<json> more;
    for (int i = 200; i < 240; ++i) more.push_back(work_task(i));
    add_tasks("work", more);
    add_tasks("seed-sweep", {json{{"id", "late-1"}, {"commandLine", "/bin/sh -c 'echo late'"}},
                             json{{"id", "late-2"}, {"commandLine", "/bin/sh -c 'exit 3'"}}});
  }
  pause();
  for (int i : {7, 8, 9, 500, 1000, 1500, 1999, 2000})
    delete_task("seed-sweep", fmt::format("task-{:07}", i));
  for (int i : {0, 5, 60, 160, 199}) delete_task("work", fmt::format("w-{:04}", i));
  pause();
  land(
      "resize seed-gpu to 5",
      [&] {
        return mut->call("POST", "/pools/seed-gpu/resize", {},
                         json{{"targetDedicatedNodes", 5}}.dump());
      },
      [&] {
        auto p = get("/pools/seed-gpu");
        return p && p->value("targetDedicatedNodes", -1) == 5;
      });
  land(
      "delete pool seed-cpu", [&] { return mut->call("DELETE", "/pools/seed-cpu"); },
      [&] {
        auto p = get("/pools/seed-cpu");
        return !p || p->value("state", "") == "deleting";
      });
  // The faults stay on while the work job's tasks run out, so the poller keeps meeting them.
  EXPECT_TRUE(eventually(
      [&] {
        auto r = mut->call("GET", "/jobs/work/taskcounts");
        auto c = r ? azure::parse_task_counts(r->body) : Result<azure::JobTaskCounts>(r.error());
        return c && c->active == 0 && c->running == 0;
      },
      30s))
      << "the work job's tasks never ran out";

  // Faults off: the service settles (pools steady, deletions finished).
  const auto under_faults = poller.status();
  set_faults("");
  const auto t_faults_off = Steady::now();
  ASSERT_TRUE(eventually([&] { return quiet(); }, 30s)) << "the emulator never went quiet";
  const auto t_quiet = Steady::now();

  // Settle: each pane on screen again, long enough for a version pass of each job
  // (deletion_interval) and for clean cycles; background rounds run count checks meanwhile.
  browsing = false;
  if (ui.joinable()) ui.join();
  auto settle_on = [&](const PollFocus& v) {
    poller.set_focus(v);
    // A job's version pass is due a deletion interval after its last one (or its last full
    // listing); two whole cycles that start after that ran it.
    std::this_thread::sleep_for(2 * kDeletionInterval + o.focus_interval);
    const auto c1 = poller.status().cycles;
    EXPECT_TRUE(eventually([&] {
      auto s = poller.status();
      return s.cycles >= c1 + 2 && s.last_error.empty();
    })) << "no clean cycle after the faults stopped: "
        << poller.status().last_error;
  };
  Truth t;
  Diffs d;
  std::string first_round;  // what one settling round left different, when it did
  int rounds = 0;
  for (; rounds < 3; ++rounds) {
    std::vector<PollFocus> final_views = {{true, "", true, ""}};
    auto pools = f.client->pools();
    auto jobs = f.client->jobs();
    ASSERT_TRUE(pools.ok() && jobs.ok());
    for (const auto& p : *pools) final_views.push_back({false, p.id, false, ""});
    for (const auto& j : *jobs) final_views.push_back({false, "", false, j.id});
    for (const auto& v : final_views) settle_on(v);
    if (rounds == 0) {
      // A user still looking at a pool or job that is gone: the pane gets its NotFound (which
      // the poller does not count as a failed cycle), and nothing of the gone entity may come
      // back into the cache.
      for (const PollFocus& gone :
           {PollFocus{false, "seed-cpu", false, ""}, PollFocus{false, "", false, "doomed"}}) {
        poller.set_focus(gone);
        const auto c1 = poller.status().cycles + 1;  // the cycle in flight may predate it
        EXPECT_TRUE(eventually([&] { return poller.status().cycles >= c1 + 2; }));
      }
      settle_on({true, "", true, ""});
    }
    t = truth();
    d = compare(t);
    if (d.lines.empty()) break;
    if (rounds == 0) first_round = d.text(20);
  }
  const auto t_settled = Steady::now();
  watching = false;
  if (watcher.joinable()) watcher.join();
  auto status = poller.status();
  poller.stop();

  // Counts agree too (the check a background round makes for a job not on screen).
  SyncTarget target{*f.store, *f.client, f.emu.account(), f.clock};
  for (const auto& j : t.jobs) {
    auto differ = task_counts_differ(target, j.id);
    ASSERT_TRUE(differ.ok()) << differ.error().message;
    EXPECT_FALSE(*differ) << "task counts of " << j.id;
  }

  std::string done;
  for (const auto& l : log) done += "  " + l + "\n";
  EXPECT_TRUE(d.lines.empty()) << d.lines.size() << " differences after " << rounds + 1
                               << " settling rounds:\n"
                               << d.text() << "mutations:\n"
                               << done;
  auto marks = stale_marks(t);
  EXPECT_TRUE(marks.lines.empty()) << marks.text();
  // One round must do: every pane was on screen, with faults off, for clean cycles and a version
  // pass.
  EXPECT_EQ(rounds, 0) << "the cache needed " << rounds + 1 << " settling rounds; after one:\n"
                       << first_round;

  // The service really has what the mutations made.
  std::set<std::string> jobs;
  for (const auto& j : t.jobs) jobs.insert(j.id);
  EXPECT_EQ(jobs, (std::set<std::string>{"ending", "seed-sweep", "work"}));
  EXPECT_EQ(t.tasks["seed-sweep"].size(), 2000u - 8 + 2);
  EXPECT_EQ(t.tasks["work"].size(), 240u - 5);
  std::set<std::string> pools;
  for (const auto& p : t.pools) pools.insert(p.id);
  EXPECT_EQ(pools, (std::set<std::string>{"seed-gpu", "work"}));
  EXPECT_EQ(t.nodes["seed-gpu"].size(), 5u);

  // Faults were exercised, and the poller never looked broken.
  EXPECT_GT(under_faults.retries, 0u);
  EXPECT_GT(under_faults.throttled, 0u);
  EXPECT_TRUE(status.polling);
  EXPECT_FALSE(lost_lock) << "the poller let go of the account's poll lock";
  // Still alive after the faults: the settling above waited on its cycles, and they went on.
  EXPECT_GT(status.cycles, under_faults.cycles);
  EXPECT_GT(under_faults.cycles, 0u);
  std::string seen;
  for (const auto& e : errors) {
    seen += "  " + e + "\n";
    // Only the injected faults may show: their statuses, or a connection closed early (reset,
    // truncate). Anything else (a store error, a parse error from a half body that slipped
    // through, a thrown exception) is the poller breaking, not the service.
    bool injected = false;
    for (const char* fault :
         {"(HTTP 429", "(HTTP 503", "(HTTP 500", "transfer closed with", "Empty reply from server",
          "Connection reset", "Recv failure", "Failure when receiving data"})
      injected = injected || e.find(fault) != std::string::npos;
    EXPECT_TRUE(injected) << "a poller error that is no injected fault: " << e;
  }
  std::printf(
      "fault equality: setup %.1f s, faults %.1f s, quiet %.1f s later, settled in %.1f s; "
      "under faults %llu cycles, %llu requests, %llu retries, %llu throttled; in all %llu "
      "requests, %zu distinct step errors\n%s",
      std::chrono::duration<double>(t_faults_on - t_start).count(),
      std::chrono::duration<double>(t_faults_off - t_faults_on).count(),
      std::chrono::duration<double>(t_quiet - t_faults_off).count(),
      std::chrono::duration<double>(t_settled - t_quiet).count(),
      static_cast<unsigned long long>(under_faults.cycles),
      static_cast<unsigned long long>(under_faults.requests),
      static_cast<unsigned long long>(under_faults.retries),
      static_cast<unsigned long long>(under_faults.throttled),
      static_cast<unsigned long long>(status.requests), errors.size(), seen.c_str());
}

}  // namespace
}  // namespace trainyard::fault_equality_test
