// Spot nodes, requeues and a Batch task's files in the TUI: the pools, nodes and tasks tables,
// the task detail pane (snapshots at 80x24 and 160x45) and the status line on a preemption.
#include <gtest/gtest.h>

#include <chrono>

#include "store/store.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_spot_test {
namespace {

using apptest::kNormal;
constexpr TermSize kWide{160, 45};
constexpr const char* kAccount = "contoso";

Timestamp at(int s) {
  return Timestamp(std::chrono::seconds(1'709'287'200 + s));  // 2024-03-01T10:00:00Z + s
}

Pool pool(const std::string& id, int dedicated[2], int spot[2]) {
  Pool p;
  p.account = kAccount;
  p.id = id;
  p.vm_size = "standard_nc24ads_a100_v4";
  p.current_dedicated_nodes = dedicated[0];
  p.target_dedicated_nodes = dedicated[1];
  p.current_low_priority_nodes = spot[0];
  p.target_low_priority_nodes = spot[1];
  p.allocation_state = AllocationState::Resizing;
  p.task_slots_per_node = 4;
  return p;
}

Node node(const std::string& id, bool dedicated, NodeState state) {
  Node n;
  n.account = kAccount;
  n.pool_id = "gpu-spot";
  n.id = id;
  n.is_dedicated = dedicated;
  n.state = state;
  n.ip_address = "10.0.0.4";
  n.state_transition_time = at(0);
  return n;
}

// A Batch task preempted twice and retried once, with files to download and upload.
Task files_task() {
  Task t;
  t.account = kAccount;
  t.job_id = "train";
  t.id = "resnet-7";
  t.command_line = "python3 train.py --data data";
  t.state = TaskState::Completed;
  t.creation_time = t.state_transition_time = at(0);
  t.execution_info.start_time = at(60);
  t.execution_info.end_time = at(3660);
  t.execution_info.exit_code = 0;
  t.execution_info.result = TaskResult::Success;
  t.execution_info.retry_count = 1;
  t.execution_info.requeue_count = 2;
  t.constraints.max_task_retry_count = 2;
  t.constraints.max_wall_clock_time = std::chrono::hours(6);
  t.environment_settings = {{"EPOCHS", "30"}, {"DATA", "data"}};
  ResourceFile csv;
  // The URLs carry SAS tokens, as `--upload` makes them: their signatures never show.
  csv.http_url =
      "https://acct.blob.core.windows.net/data/train.csv?sv=2021-08-06&sr=b&sp=r&sig=SECRET1";
  csv.file_path = "train.csv";
  ResourceFile images;
  images.storage_container_url =
      "https://acct.blob.core.windows.net/images?sv=2021-08-06&sr=c&sp=rl&sig=SECRET2";
  images.blob_prefix = "cifar/";
  images.file_path = "data";
  t.resource_files = {csv, images};
  OutputFile ckpt;
  ckpt.file_pattern = "checkpoints/*.pt";
  ckpt.container_url =
      "https://acct.blob.core.windows.net/out?sv=2021-08-06&sr=c&sp=cw&sig=SECRET3";
  ckpt.path = "run-7";
  ckpt.upload_condition = "tasksuccess";
  OutputFile logs;
  logs.file_pattern = "../std*.txt";
  logs.container_url = "https://acct.blob.core.windows.net/logs";
  t.output_files = {ckpt, logs};
  return t;
}

class TuiSpot : public apptest::TuiScreen {
 protected:
  void SetUp() override {
    int none[2] = {0, 0}, one_of_two[2] = {1, 2}, two[2] = {2, 2};
    ASSERT_TRUE(store().upsert_pool(pool("gpu-spot", none, one_of_two)).ok());
    ASSERT_TRUE(store().upsert_pool(pool("cpu", two, none)).ok());
    ASSERT_TRUE(store().upsert_node(node("tvm-1-d", true, NodeState::Idle)).ok());
    ASSERT_TRUE(store().upsert_node(node("tvm-2-p", false, NodeState::Preempted)).ok());
    ASSERT_TRUE(store().upsert_task(files_task()).ok());
  }
  Store& store() { return *fixture_.ctx().store; }
  void open_batch(TermSize size, const std::string& view, const std::string& job = "") {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = view;
    o.account = kAccount;
    o.job = job;
    o.ascii = ascii_;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
  }
  // The words of a screen line (table borders dropped).
  std::vector<std::string> words_of(const std::string& line) {
    std::vector<std::string> out;
    std::string w;
    for (size_t i = 0; i <= line.size(); ++i) {
      bool sep = i == line.size() || line[i] == ' ' || line.compare(i, 3, "\u2502") == 0;
      if (!sep) {
        w += line[i];
        continue;
      }
      if (!w.empty()) out.push_back(w);
      w.clear();
      if (i < line.size() && line[i] != ' ') i += 2;
    }
    return out;
  }
};

TEST_F(TuiSpot, PoolsPaneShowsDedicatedAndSpot80x24) {
  open_batch(kNormal, "pools");
  auto header = words_of(line_with("POOL"));
  ASSERT_GE(header.size(), 6u) << screen();
  EXPECT_EQ(header[3], "DEDICATED");
  EXPECT_EQ(header[4], "SPOT");
  auto spot = words_of(line_with("gpu-spot"));
  ASSERT_GE(spot.size(), 5u) << screen();
  EXPECT_EQ(spot[3], "0/0");
  EXPECT_EQ(spot[4], "1/2");
  auto cpu = words_of(line_with("cpu "));
  ASSERT_GE(cpu.size(), 5u) << screen();
  EXPECT_EQ(cpu[3], "2/2");
  EXPECT_EQ(cpu[4], "0/0");
  expect("pools_spot_80x24");
}

TEST_F(TuiSpot, PoolsPaneShowsDedicatedAndSpot160x45) {
  open_batch(kWide, "pools");
  auto spot = words_of(line_with("gpu-spot"));
  ASSERT_GE(spot.size(), 5u) << screen();
  EXPECT_EQ(spot[3], "0/0");
  EXPECT_EQ(spot[4], "1/2");
  expect("pools_spot_160x45");
}

TEST_F(TuiSpot, NodesPaneSaysWhichNodesAreSpot) {
  open_batch(kNormal, "pools");
  keys("Down Enter");  // pools by id: cpu, then gpu-spot
  auto header = words_of(line_with("NODE"));
  auto kind = std::find(header.begin(), header.end(), "KIND");
  ASSERT_NE(kind, header.end()) << screen();
  auto i = static_cast<size_t>(kind - header.begin());
  auto dedicated = words_of(line_with("tvm-1-d"));
  auto spot = words_of(line_with("tvm-2-p"));
  ASSERT_GT(dedicated.size(), i) << screen();
  ASSERT_GT(spot.size(), i) << screen();
  EXPECT_EQ(dedicated[i], "dedicated");
  EXPECT_EQ(spot[i], "spot");
  EXPECT_EQ(spot[1], "preempt");  // at 80 columns the state takes its short form
}

// A terminal that is not UTF-8 gets the Pools and Nodes panes in ASCII, columns where they were.
TEST_F(TuiSpot, PoolsAndNodesInAscii) {
  ascii_ = true;
  open_batch(kNormal, "pools");
  expect("ascii_pools_80x24");
  keys("Down Enter");
  expect("ascii_nodes_80x24");
}

TEST_F(TuiSpot, TasksPaneShowsRequeuesNextToRetries) {
  open_batch(kNormal, "tasks", "train");
  auto header = words_of(line_with("STATE"));
  auto try_at = std::find(header.begin(), header.end(), "TRY");
  ASSERT_NE(try_at, header.end()) << screen();
  ASSERT_NE(try_at + 1, header.end());
  EXPECT_EQ(*(try_at + 1), "RQ") << screen();
  auto row = words_of(line_with("resnet-7"));
  auto i = static_cast<size_t>(try_at - header.begin());
  ASSERT_GT(row.size(), i + 1) << screen();
  EXPECT_EQ(row[i], "1");      // retries
  EXPECT_EQ(row[i + 1], "2");  // requeues
}

TEST_F(TuiSpot, DetailShowsFilesEnvironmentAndLimits80x24) {
  open_batch(kNormal, "tasks", "train");
  keys("d");
  EXPECT_NE(line_with("retries     1 of 2 \u00b7 requeues 2"), "") << screen();
  EXPECT_NE(line_with("time limit  6h"), "") << screen();
  EXPECT_NE(line_with("env         EPOCHS=30  DATA=data"), "") << screen();
  EXPECT_NE(
      line_with("inputs      train.csv \u2190 https://acct.blob.core.windows.net/data/train.csv"),
      "")
      << screen();
  EXPECT_NE(line_with("            data \u2190 https://acct.blob.core.windows.net/images/cifar/*"),
            "")
      << screen();
  // At 80 columns the line is cut after the destination; 160 columns show its condition.
  EXPECT_NE(
      line_with("outputs     checkpoints/*.pt \u2192 https://acct.blob.core.windows.net/out/run-7"),
      "")
      << screen();
  EXPECT_EQ(screen().find("SECRET"), std::string::npos) << screen();
  expect("detail_batch_files_80x24");
}

TEST_F(TuiSpot, DetailShowsFilesEnvironmentAndLimits160x45) {
  open_batch(kWide, "tasks", "train");
  keys("d");
  EXPECT_NE(
      line_with("outputs     checkpoints/*.pt \u2192 https://acct.blob.core.windows.net/out/run-7 "
                "(on success)"),
      "")
      << screen();
  EXPECT_NE(line_with("            ../std*.txt \u2192 https://acct.blob.core.windows.net/logs "
                      "(always)"),
            "")
      << screen();
  EXPECT_EQ(screen().find("SECRET"), std::string::npos) << screen();
  expect("detail_batch_files_160x45");
}

TEST_F(TuiSpot, APreemptionIsAnnouncedInTheStatusLine) {
  open_batch(kNormal, "pools");
  EXPECT_EQ(line_with("preempted"), "") << screen();  // what was so before is not news
  // Another process (the account's poller) stores the preemption.
  auto other = Store::open(fixture_.dir() + "/cache.db");
  ASSERT_TRUE(other.ok()) << other.error().message;
  Node back = node("tvm-2-p", false, NodeState::Idle);
  back.state_transition_time = at(10);
  ASSERT_TRUE((*other)->upsert_node(back).ok());
  Node gone = node("tvm-1-d", false, NodeState::Preempted);
  gone.state_transition_time = at(20);
  ASSERT_TRUE((*other)->upsert_node(gone).ok());
  Task t = files_task();
  t.execution_info.requeue_count = 3;
  ASSERT_TRUE((*other)->upsert_task(t).ok());
  tui_->refresh();
  tui_->draw();
  EXPECT_NE(line_with("node gpu-spot/tvm-1-d preempted; task train/resnet-7 requeued (3)"), "")
      << screen();
}

}  // namespace
}  // namespace trainyard::tui_spot_test
