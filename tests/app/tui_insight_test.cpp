// The Pool pane (heatmap, counts, resize, history, quotas), the Jobs pane's progress, the
// Failed pane and the task timeline, on a Batch account of the seeded store (snapshots at 80x24
// and 200x60).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "azure/discovery.hpp"
#include "store/price_cache.hpp"
#include "store/store.hpp"
#include "sync/remote_log.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_insight_test {
namespace {

using apptest::kFixtureNow;
using apptest::kNormal;
constexpr TermSize kLarge{200, 60};
constexpr const char* kAccount = "contoso";

Timestamp at(int s) {
  return Timestamp(std::chrono::seconds(1'709'287'200 + s));  // 2024-03-01T10:00:00Z + s
}

Task task(const std::string& id, TaskState state) {
  Task t;
  t.account = kAccount;
  t.job_id = "sweep";
  t.id = id;
  t.command_line = "python3 train.py";
  t.state = state;
  t.creation_time = t.state_transition_time = at(0);
  return t;
}

Task failed(const std::string& id, int exit_code, FailureInfo info, int end_s) {
  Task t = task(id, TaskState::Completed);
  t.execution_info.exit_code = exit_code;
  t.execution_info.result = TaskResult::Failure;
  t.execution_info.failure_info = std::move(info);
  t.execution_info.end_time = at(end_s);
  return t;
}

Node node(const std::string& id, bool dedicated, NodeState state) {
  Node n;
  n.account = kAccount;
  n.pool_id = "gpu";
  n.id = id;
  n.is_dedicated = dedicated;
  n.state = state;
  n.running_tasks_count = state == NodeState::Running ? 2 : 0;
  n.state_transition_time = at(0);
  return n;
}

Pool pool(const std::string& id, const std::string& size, int dedicated[2], int spot[2]) {
  Pool p;
  p.account = kAccount;
  p.id = id;
  p.vm_size = size;
  p.current_dedicated_nodes = dedicated[0];
  p.target_dedicated_nodes = dedicated[1];
  p.current_low_priority_nodes = spot[0];
  p.target_low_priority_nodes = spot[1];
  p.task_slots_per_node = 4;
  return p;
}

class TuiInsight : public apptest::TuiScreen {
 protected:
  Store& store() { return *fixture_.ctx().store; }

  void open_batch(TermSize size, const std::string& view, const std::string& job = "") {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = view;
    o.account = kAccount;
    o.job = job;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
  }

  // sweep: 5 succeeded, 2 failed, 2 running, 3 queued (12); old: completed, no task.
  void seed_job() {
    Job j;
    j.account = kAccount;
    j.id = "sweep";
    j.pool_id = "gpu";
    j.creation_time = at(0);
    ASSERT_TRUE(store().upsert_job(j).ok());
    j.id = "old";
    j.state = JobState::Completed;
    j.creation_time = at(-3600);  // older: sweep is the first row
    ASSERT_TRUE(store().upsert_job(j).ok());
    for (int i = 1; i <= 5; ++i) {
      Task t = task("ok-" + std::to_string(i), TaskState::Completed);
      t.execution_info.exit_code = 0;
      t.execution_info.result = TaskResult::Success;
      ASSERT_TRUE(store().upsert_task(t).ok());
    }
    ASSERT_TRUE(
        store()
            .upsert_task(failed("lr-01", 2,
                                {ErrorCategory::UserError, "FailureExitCode",
                                 "The task exited with an exit code representing a failure"},
                                500))
            .ok());
    ASSERT_TRUE(
        store()
            .upsert_task(failed(
                "lr-03", 137,
                {ErrorCategory::ServerError, "TaskEnded", "node lost\x1b[2J while running"}, 600))
            .ok());
    for (const char* id : {"run-1", "run-2"})
      ASSERT_TRUE(store().upsert_task(task(id, TaskState::Running)).ok());
    for (const char* id : {"q-1", "q-2", "q-3"})
      ASSERT_TRUE(store().upsert_task(task(id, TaskState::Active)).ok());
  }

  // The cache copy of lr-03's stderr: 30 lines, the last with a terminal escape.
  void seed_stderr() {
    auto path =
        remote_cache_path(fixture_.dir(), {kAccount, "sweep", "lr-03", "", "", "stderr.txt"});
    ASSERT_TRUE(path.ok());
    std::filesystem::create_directories(path->parent_path());
    std::ofstream out(*path);
    for (int i = 1; i < 30; ++i) out << "epoch " << i << " loss=0." << i << "\n";
    out << "RuntimeError: CUDA out of memory\x1b]0;owned\x07\n";
  }

  // gpu: 5 of 6 dedicated (2 running, idle, starting, unusable) and 2 of 3 Spot (running,
  // preempted), resizing with an error; cpu: 3 dedicated. Samples an hour, half an hour and
  // ten minutes ago and now.
  void seed_pools() {
    int cpu_d[2] = {3, 3}, none[2] = {0, 0};
    ASSERT_TRUE(store().upsert_pool(pool("cpu", "standard_d4s_v3", cpu_d, none)).ok());
    using S = NodeState;
    for (auto n :
         {node("d-1", true, S::Running), node("d-2", true, S::Running), node("d-3", true, S::Idle),
          node("d-4", true, S::Starting), node("d-5", true, S::Unusable),
          node("s-1", false, S::Running), node("s-2", false, S::Preempted)})
      ASSERT_TRUE(store().upsert_node(n).ok());
    int sizes[4][2] = {{2, 0}, {4, 1}, {5, 3}, {5, 2}};
    int ago[4] = {3600, 1800, 600, 0};
    for (int i = 0; i < 4; ++i) {
      int d[2] = {sizes[i][0], 6}, s[2] = {sizes[i][1], 3};
      Pool p = pool("gpu", "Standard_NC24ads_A100_v4", d, s);
      p.allocation_state = AllocationState::Resizing;
      p.resize_error = "AllocationFailed: Spot quota reached\x1b[31m";
      ASSERT_TRUE(store().upsert_pool(p).ok());
      ASSERT_TRUE(
          store().record_pool_samples(kAccount, kFixtureNow - std::chrono::seconds(ago[i])).ok());
    }
  }

  void seed_quotas() {
    azure::DiscoveredAccount d;
    d.config.name = kAccount;
    d.config.endpoint = "https://contoso.westeurope.batch.azure.com";
    d.quotas = azure::AccountQuotas{500, 100, 20, 50};
    ASSERT_TRUE(azure::save_discovery_cache(azure::discovery_cache_path(fixture_.dir()), {d}).ok());
  }
};

// 7 of 12 finished: 8 × 7 / 12 = 4 cells filled, the 2 failures 8 × 2 / 12 = 1 of them (×);
// 7 × 100 / 12 = 58%.
TEST_F(TuiInsight, JobsPaneShowsProgress200x60) {
  seed_job();
  open_batch(kLarge, "jobs");
  EXPECT_NE(line_with("sweep").find("███×░░░░ 58%"), std::string::npos) << screen();
  EXPECT_NE(line_with("PROGRESS"), "") << screen();
  expect("jobs_progress_200x60");
}

TEST_F(TuiInsight, JobsPaneShowsProgress80x24) {
  seed_job();
  open_batch(kNormal, "jobs");
  EXPECT_NE(line_with("sweep").find("58%"), std::string::npos) << screen();
  expect("jobs_progress_80x24");
}

// F on a job lists its failures, the latest first, with the selected one's stderr tail.
TEST_F(TuiInsight, FailedTasksOneKeyAway200x60) {
  seed_job();
  seed_stderr();
  open_batch(kLarge, "jobs");
  keys("F");
  auto first = line_with("lr-03");
  EXPECT_NE(first.find("137"), std::string::npos) << screen();
  EXPECT_NE(first.find("servererror"), std::string::npos) << screen();
  EXPECT_NE(first.find("TaskEnded"), std::string::npos) << screen();
  EXPECT_EQ(first.find('\x1b'), std::string::npos);
  EXPECT_NE(line_with("lr-01").find("FailureExitCode"), std::string::npos) << screen();
  EXPECT_LT(screen().find("lr-03"), screen().find("lr-01"));
  EXPECT_NE(line_with("stderr of lr-03"), "") << screen();
  EXPECT_NE(line_with("RuntimeError: CUDA out of memory"), "") << screen();
  EXPECT_NE(line_with("epoch 29 loss=0.29"), "") << screen();
  expect("failed_200x60");
}

TEST_F(TuiInsight, FailedTasksOneKeyAway80x24) {
  seed_job();
  seed_stderr();
  open_batch(kNormal, "jobs");
  keys("F");
  EXPECT_NE(line_with("RuntimeError: CUDA out of memory"), "") << screen();
  expect("failed_80x24");
  keys("j");  // lr-01 has no cache copy yet: the poller fetches it
  EXPECT_NE(line_with("stderr of lr-01"), "") << screen();
  EXPECT_NE(line_with("not fetched yet"), "") << screen();
}

// d on a pool: 5 dedicated (running 2, idle, starting, unusable), 2 Spot (running, preempted);
// cores 24 × 5 + 4 × 3 = 132 dedicated, 24 × 2 = 48 Spot; 2 pools; 1 job not completed.
TEST_F(TuiInsight, PoolPaneHeatmapCountsResizeAndQuotas200x60) {
  seed_job();
  seed_pools();
  seed_quotas();
  open_batch(kLarge, "pools");
  keys("Down d");  // pools by id: cpu, gpu
  EXPECT_NE(line_with("5 node(s): running 2 · idle 1 · starting 1 · unusable 1"), "") << screen();
  EXPECT_NE(line_with("2 node(s): running 1 · preempted 1"), "") << screen();
  EXPECT_NE(line_with("resizing · dedicated 5 → 6 · Spot 2 → 3"), "") << screen();
  EXPECT_NE(line_with("AllocationFailed: Spot quota reached"), "") << screen();
  EXPECT_NE(
      line_with("dedicated cores 132/500 · Spot cores 48/100 · pools 2/20 · active jobs 1/50"), "")
      << screen();
  EXPECT_NE(line_with("nodes (5 + 2 Spot)"), "") << screen();
  EXPECT_NE(line_with("running tasks (6)"), "") << screen();  // 3 running nodes × 2
  expect("pool_200x60");
}

// The gpu pool at the cached westeurope prices (dedicated 3.673, Spot 0.7346 an hour): 5
// dedicated × 3.673 = 18.365, plus 2 Spot of which 1 preempted: 1 × 0.7346; 19.0996 an hour.
// d-3 is idle: 1 × 3.673 billing for nothing.
TEST_F(TuiInsight, PoolPaneShowsItsBurnRateAndIdleDedicatedNodes) {
  seed_job();
  seed_pools();
  std::vector<VmPrice> prices = {
      {"Standard_NC24ads_A100_v4", "westeurope", PriceKind::Dedicated, 3.673, "USD", at(-86400)},
      {"Standard_NC24ads_A100_v4", "westeurope", PriceKind::Spot, 0.7346, "USD", at(-86400)}};
  ASSERT_TRUE(store_prices(store(), "Standard_NC24ads_A100_v4", "westeurope", prices,
                           kFixtureNow - std::chrono::hours(3))
                  .ok());
  open_batch(kLarge, "pools");
  keys("Down d");
  EXPECT_NE(line_with("cost      19.0996 USD/h now · 5 dedicated × 3.6730 + 1 Spot × 0.7346 (1 "
                      "preempted, not billed)"),
            "")
      << screen();
  EXPECT_NE(line_with("westeurope Linux prices of 2024-03-01 UTC, USD"), "") << screen();
  EXPECT_NE(line_with("waste     1 idle dedicated node(s) billing 3.6730 USD/h"), "") << screen();
  keys("q Up d");  // cpu (standard_d4s_v3) has no cached price
  EXPECT_NE(line_with("cost      unknown: no prices cached for standard_d4s_v3 in westeurope"), "")
      << screen();
}

TEST_F(TuiInsight, PoolPane80x24AndEnterStillOpensNodes) {
  seed_job();
  seed_pools();
  open_batch(kNormal, "pools");
  keys("Down d");
  EXPECT_NE(line_with("usage     dedicated cores 132 · Spot cores 48 · pools 2 · active jobs 1"),
            "")
      << screen();
  expect("pool_80x24");
  keys("q Enter");
  EXPECT_NE(line_with("Nodes · gpu"), "") << screen();
}

// The local node's state is live, as on the Nodes pane: the fixture's lr-0010 runs on it.
TEST_F(TuiInsight, TheLocalPoolsNodeRunsWhileATaskDoes) {
  open(kNormal, "pools");
  keys("d");
  EXPECT_NE(line_with("1 node(s): running 1"), "") << screen();
  keys("q Enter");  // the Nodes pane agrees
  EXPECT_NE(line_with("running"), "") << screen();
}

// Queued, started, retried, requeued after a preemption, started again, failed.
TEST_F(TuiInsight, DetailShowsTheTaskTimeline) {
  seed_job();
  Task t = task("life", TaskState::Active);
  ASSERT_TRUE(store().upsert_task(t).ok());
  auto step = [&](TaskState s, int sec, int retries, int requeues) {
    t.state = s;
    t.state_transition_time = at(sec);
    t.execution_info.retry_count = retries;
    t.execution_info.requeue_count = requeues;
    if (s == TaskState::Completed) {
      t.execution_info.result = TaskResult::Failure;
      t.execution_info.exit_code = 1;
    }
    ASSERT_TRUE(store().upsert_task(t).ok());
  };
  step(TaskState::Running, 60, 0, 0);
  step(TaskState::Running, 300, 1, 0);
  step(TaskState::Active, 450, 1, 1);
  step(TaskState::Running, 480, 1, 1);
  step(TaskState::Completed, 1200, 1, 1);
  open_batch(kLarge, "tasks", "sweep");
  select_task("life");
  keys("d");
  EXPECT_NE(line_with("timeline    10:00:00 queued → 10:01:00 started → 10:05:00 retried (1) → "
                      "10:07:30 requeued (1) → 10:08:00 started → 10:20:00 failed"),
            "")
      << screen();
  expect("detail_timeline_200x60");
  open_batch(kNormal, "tasks", "sweep");
  select_task("life");
  keys("d");
  EXPECT_NE(line_with("timeline    10:00:00 queued → 10:01:00 started → 10:05:00 retried (1)"), "")
      << screen();
  EXPECT_NE(line_with("→ 10:07:30 requeued (1) → 10:08:00 started → 10:20:00 failed"), "")
      << screen();
  expect("detail_timeline_80x24");
}

// Keras' evaluation after training printed one test_loss: as a chart it drew an axis around its
// single value. A series of one point is a value on one line; the curves keep the charts.
TEST_F(TuiInsight, ASeriesOfOnePointIsAValueNotAChart) {
  seed_job();
  Task t = task("evaluated", TaskState::Completed);
  t.execution_info.result = TaskResult::Success;
  t.execution_info.exit_code = 0;
  ASSERT_TRUE(store().upsert_task(t).ok());
  std::vector<MetricPoint> pts;
  for (int i = 1; i <= 3; ++i) pts.push_back({"loss", double(i), 1.0 / i, at(60 * i)});
  pts.push_back({"test_loss", 1, 0.0185, at(240)});
  ASSERT_TRUE(store().add_metric_points(t.account, t.job_id, t.id, pts).ok());
  open_batch(kLarge, "tasks", "sweep");
  select_task("evaluated");
  keys("d");
  EXPECT_NE(line_with("values  test_loss (stdout) 0.0185"), "") << screen();
  EXPECT_EQ(line_with("test_loss · stdout"), "") << screen();
  EXPECT_NE(line_with("loss · stdout (0.3333)"), "") << screen();
}

}  // namespace
}  // namespace trainyard::tui_insight_test
