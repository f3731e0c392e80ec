#include <gtest/gtest.h>

#include "fixtures.hpp"

namespace trainyard::entities_test {
namespace {

using testing::at_seconds;
using testing::full_task;

using StoreEntities = testing::StoreTest;

void expect_same(const Task& a, const Task& b) {
  EXPECT_EQ(a.account, b.account);
  EXPECT_EQ(a.job_id, b.job_id);
  EXPECT_EQ(a.id, b.id);
  EXPECT_EQ(a.display_name, b.display_name);
  EXPECT_EQ(a.command_line, b.command_line);
  EXPECT_EQ(a.state, b.state);
  EXPECT_EQ(a.creation_time, b.creation_time);
  EXPECT_EQ(a.state_transition_time, b.state_transition_time);
  EXPECT_EQ(a.previous_state, b.previous_state);
  EXPECT_EQ(a.environment_settings, b.environment_settings);
  EXPECT_EQ(a.constraints.max_wall_clock_time, b.constraints.max_wall_clock_time);
  EXPECT_EQ(a.constraints.max_task_retry_count, b.constraints.max_task_retry_count);
  EXPECT_EQ(a.depends_on.task_ids, b.depends_on.task_ids);
  EXPECT_EQ(a.required_slots, b.required_slots);
  const auto& x = a.execution_info;
  const auto& y = b.execution_info;
  EXPECT_EQ(x.start_time, y.start_time);
  EXPECT_EQ(x.end_time, y.end_time);
  EXPECT_EQ(x.exit_code, y.exit_code);
  EXPECT_EQ(x.result, y.result);
  ASSERT_EQ(x.failure_info.has_value(), y.failure_info.has_value());
  if (x.failure_info) {
    EXPECT_EQ(x.failure_info->category, y.failure_info->category);
    EXPECT_EQ(x.failure_info->code, y.failure_info->code);
    EXPECT_EQ(x.failure_info->message, y.failure_info->message);
  }
  EXPECT_EQ(x.retry_count, y.retry_count);
  EXPECT_EQ(x.last_retry_time, y.last_retry_time);
  EXPECT_EQ(x.requeue_count, y.requeue_count);
  ASSERT_EQ(a.node_info.has_value(), b.node_info.has_value());
  if (a.node_info) {
    EXPECT_EQ(a.node_info->pool_id, b.node_info->pool_id);
    EXPECT_EQ(a.node_info->node_id, b.node_info->node_id);
    EXPECT_EQ(a.node_info->task_root_directory, b.node_info->task_root_directory);
  }
}

TEST_F(StoreEntities, AccountsRoundTripSortedByName) {
  ASSERT_TRUE(store_->upsert_account({"zeta", AccountKind::Batch, "https://z.batch"}).ok());
  ASSERT_TRUE(store_->upsert_account({"local", AccountKind::Local, ""}).ok());
  ASSERT_TRUE(store_->upsert_account({"emu", AccountKind::Emulator, "http://127.0.0.1:1"}).ok());
  ASSERT_TRUE(store_->upsert_account({"zeta", AccountKind::Batch, "https://z2.batch"}).ok());
  auto a = store_->accounts();
  ASSERT_TRUE(a.ok()) << a.error().message;
  ASSERT_EQ(a->size(), 3u);
  EXPECT_EQ((*a)[0].name, "emu");
  EXPECT_EQ((*a)[0].kind, AccountKind::Emulator);
  EXPECT_EQ((*a)[1].kind, AccountKind::Local);
  EXPECT_EQ((*a)[2].endpoint, "https://z2.batch");
}

TEST_F(StoreEntities, PoolRoundTrip) {
  Pool p{"acct",
         "gpu",
         "GPU pool",
         "Standard_NC6",
         PoolState::Deleting,
         AllocationState::Resizing,
         1,
         2,
         3,
         4,
         4,
         at_seconds(1),
         at_seconds(2)};
  ASSERT_TRUE(store_->upsert_pool(p).ok());
  ASSERT_TRUE(store_->upsert_pool(Pool{.account = "acct", .id = "cpu"}).ok());
  ASSERT_TRUE(store_->upsert_pool(Pool{.account = "other", .id = "x"}).ok());
  auto pools = store_->pools("acct");
  ASSERT_TRUE(pools.ok()) << pools.error().message;
  ASSERT_EQ(pools->size(), 2u);
  EXPECT_EQ((*pools)[0].id, "cpu");
  EXPECT_FALSE((*pools)[0].creation_time.has_value());
  const Pool& q = (*pools)[1];
  EXPECT_EQ(q.display_name, "GPU pool");
  EXPECT_EQ(q.vm_size, "Standard_NC6");
  EXPECT_EQ(q.state, PoolState::Deleting);
  EXPECT_EQ(q.allocation_state, AllocationState::Resizing);
  EXPECT_EQ(q.current_dedicated_nodes, 1);
  EXPECT_EQ(q.target_dedicated_nodes, 2);
  EXPECT_EQ(q.current_low_priority_nodes, 3);
  EXPECT_EQ(q.target_low_priority_nodes, 4);
  EXPECT_EQ(q.task_slots_per_node, 4);
  EXPECT_EQ(q.creation_time, at_seconds(1));
  EXPECT_EQ(q.state_transition_time, at_seconds(2));
}

TEST_F(StoreEntities, NodeRoundTrip) {
  Node n{"acct",
         "gpu",
         "tvm-1",
         NodeState::WaitingForStartTask,
         SchedulingState::Disabled,
         "Standard_NC6",
         "10.0.0.4",
         1,
         2,
         30,
         4,
         at_seconds(7)};
  ASSERT_TRUE(store_->upsert_node(n).ok());
  ASSERT_TRUE(store_->upsert_node(Node{.account = "acct", .pool_id = "cpu", .id = "x"}).ok());
  auto nodes = store_->nodes("acct", "gpu");
  ASSERT_TRUE(nodes.ok()) << nodes.error().message;
  ASSERT_EQ(nodes->size(), 1u);
  const Node& m = (*nodes)[0];
  EXPECT_EQ(m.id, "tvm-1");
  EXPECT_EQ(m.state, NodeState::WaitingForStartTask);
  EXPECT_EQ(m.scheduling_state, SchedulingState::Disabled);
  EXPECT_EQ(m.vm_size, "Standard_NC6");
  EXPECT_EQ(m.ip_address, "10.0.0.4");
  EXPECT_EQ(m.running_tasks_count, 1);
  EXPECT_EQ(m.running_task_slots_count, 2);
  EXPECT_EQ(m.total_tasks_run, 30);
  EXPECT_EQ(m.task_slots, 4);
  EXPECT_EQ(m.state_transition_time, at_seconds(7));
}

TEST_F(StoreEntities, JobRoundTripNewestFirst) {
  Job j{"acct",
        "old",
        "Old job",
        "gpu",
        JobState::Terminating,
        -5,
        at_seconds(1),
        at_seconds(3),
        {{"owner", "ana"}, {"sweep", "lr"}}};
  ASSERT_TRUE(store_->upsert_job(j).ok());
  Job k{.account = "acct", .id = "new", .creation_time = at_seconds(2)};
  ASSERT_TRUE(store_->upsert_job(k).ok());
  auto one = store_->job("acct", "old");
  ASSERT_TRUE(one.ok()) << one.error().message;
  ASSERT_TRUE(one->has_value());
  const Job& o = **one;
  EXPECT_EQ(o.display_name, "Old job");
  EXPECT_EQ(o.pool_id, "gpu");
  EXPECT_EQ(o.state, JobState::Terminating);
  EXPECT_EQ(o.priority, -5);
  EXPECT_EQ(o.creation_time, at_seconds(1));
  EXPECT_EQ(o.state_transition_time, at_seconds(3));
  EXPECT_EQ(o.metadata, j.metadata);
  auto all = store_->jobs("acct");
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].id, "new");
  EXPECT_EQ((*all)[1].metadata.size(), 2u);
  // Upserting replaces the metadata list.
  j.metadata = {{"owner", "bo"}};
  ASSERT_TRUE(store_->upsert_job(j).ok());
  EXPECT_EQ((*store_->job("acct", "old"))->metadata, j.metadata);
  auto missing = store_->job("acct", "nope");
  ASSERT_TRUE(missing.ok());
  EXPECT_FALSE(missing->has_value());
}

TEST_F(StoreEntities, TaskRoundTripsEveryField) {
  Task t = full_task("t1");
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto got = store_->task("acct", "job1", "t1");
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_TRUE(got->has_value());
  expect_same(**got, t);
}

TEST_F(StoreEntities, BareTaskKeepsOptionalsEmpty) {
  Task t;
  t.account = "acct";
  t.job_id = "j";
  t.id = "t";
  t.execution_info.failure_info = FailureInfo{};  // present but empty strings
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto got = store_->task("acct", "j", "t");
  ASSERT_TRUE(got.ok() && got->has_value());
  expect_same(**got, t);
}

TEST_F(StoreEntities, TaskUpsertReplacesLists) {
  Task t = full_task("t1");
  ASSERT_TRUE(store_->upsert_task(t).ok());
  t.environment_settings = {{"ONLY", "this"}};
  t.depends_on.task_ids.clear();
  t.node_info.reset();
  t.execution_info.failure_info.reset();
  t.execution_info.exit_code.reset();
  ASSERT_TRUE(store_->upsert_task(t).ok());
  auto got = store_->task("acct", "job1", "t1");
  ASSERT_TRUE(got.ok() && got->has_value());
  expect_same(**got, t);
}

TEST_F(StoreEntities, TaskFilesAndOffsets) {
  std::vector<TaskFile> files = {{"stdout.txt", 120, false, at_seconds(5)},
                                 {"outputs", 0, true, std::nullopt},
                                 {"stderr.txt", 0, false, at_seconds(6)}};
  ASSERT_TRUE(store_->set_task_files("acct", "job1", "t1", files).ok());
  auto got = store_->task_files("acct", "job1", "t1");
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_EQ(got->size(), 3u);
  EXPECT_EQ((*got)[0].name, "outputs");
  EXPECT_TRUE((*got)[0].is_directory);
  EXPECT_FALSE((*got)[0].last_modified.has_value());
  EXPECT_EQ((*got)[2].name, "stdout.txt");
  EXPECT_EQ((*got)[2].size, 120);
  EXPECT_EQ((*got)[2].last_modified, at_seconds(5));
  ASSERT_TRUE(store_->set_task_files("acct", "job1", "t1", {files[0]}).ok());
  EXPECT_EQ(store_->task_files("acct", "job1", "t1")->size(), 1u);

  EXPECT_EQ(*store_->log_offset("acct", "job1", "t1", "stdout.txt"), 0);
  ASSERT_TRUE(store_->set_log_offset("acct", "job1", "t1", "stdout.txt", 4096).ok());
  ASSERT_TRUE(store_->set_log_offset("acct", "job1", "t1", "stdout.txt", 8192).ok());
  EXPECT_EQ(*store_->log_offset("acct", "job1", "t1", "stdout.txt"), 8192);
  EXPECT_EQ(*store_->log_offset("acct", "job1", "t1", "stderr.txt"), 0);
}

// Points come back in the order the log printed them: a step counter that restarts (per epoch)
// must not interleave epochs.
TEST_F(StoreEntities, MetricsInPrintedOrderAndNamesByFirstAppearance) {
  std::vector<MetricPoint> pts = {{"loss", 2, 0.5, at_seconds(2)},
                                  {"acc", 1, 0.1, at_seconds(1)},
                                  {"loss", 1, 0.9, at_seconds(1)}};
  ASSERT_TRUE(store_->add_metric_points("acct", "job1", "t1", pts).ok());
  ASSERT_TRUE(
      store_->add_metric_points("acct", "job1", "t1", {{"loss", 1.5, 0.7, at_seconds(3)}}).ok());
  auto names = store_->metric_names("acct", "job1", "t1");
  ASSERT_TRUE(names.ok()) << names.error().message;
  EXPECT_EQ(*names, (std::vector<std::string>{"loss", "acc"}));
  auto loss = store_->metric_points("acct", "job1", "t1", "loss");
  ASSERT_TRUE(loss.ok()) << loss.error().message;
  ASSERT_EQ(loss->size(), 3u);
  EXPECT_EQ((*loss)[0].step, 2);
  EXPECT_EQ((*loss)[0].value, 0.5);
  EXPECT_EQ((*loss)[1].step, 1);
  EXPECT_EQ((*loss)[2].step, 1.5);
  EXPECT_EQ((*loss)[2].at, at_seconds(3));
  EXPECT_EQ((*loss)[2].name, "loss");
  EXPECT_TRUE(store_->metric_points("acct", "job1", "t2", "loss")->empty());
}

TEST_F(StoreEntities, LocalRunRoundTrip) {
  LocalRun r{"job1", "t1", "runs/job1/t1", "/home/u/proj", "0,2", 3, 111, 222, 333, 333, 444,
             true,   30};
  r.waiting_reason = "NVML cannot be read";
  ASSERT_TRUE(store_->upsert_local_run(r).ok());
  ASSERT_TRUE(store_->upsert_local_run(LocalRun{.job = "job0", .task = "a"}).ok());
  auto got = store_->local_run("job1", "t1");
  ASSERT_TRUE(got.ok()) << got.error().message;
  ASSERT_TRUE(got->has_value());
  const LocalRun& g = **got;
  EXPECT_EQ(g.run_dir, r.run_dir);
  EXPECT_EQ(g.workdir, r.workdir);
  EXPECT_EQ(g.gpu_ids, r.gpu_ids);
  EXPECT_EQ(g.attempt, 3);
  EXPECT_EQ(g.supervisor_pid, 111);
  EXPECT_EQ(g.supervisor_start, 222);
  EXPECT_EQ(g.pid, 333);
  EXPECT_EQ(g.pgid, 333);
  EXPECT_EQ(g.start_ticks, 444);
  EXPECT_TRUE(g.stop_requested);
  EXPECT_EQ(g.grace_seconds, 30);
  EXPECT_EQ(g.waiting_reason, "NVML cannot be read");
  auto all = store_->local_runs();
  ASSERT_TRUE(all.ok());
  ASSERT_EQ(all->size(), 2u);
  EXPECT_EQ((*all)[0].job, "job0");
  ASSERT_TRUE(store_->delete_local_run("job1", "t1").ok());
  EXPECT_FALSE(store_->local_run("job1", "t1")->has_value());
}

}  // namespace
}  // namespace trainyard::entities_test
