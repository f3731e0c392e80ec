// Slots, queueing, dependencies, stop escalation and lost supervisors.
#include "engine_fixture.hpp"

namespace trainyard::test::engine_scheduling_test {
namespace {

TEST_F(EngineTest, ThreeTasksShareOneSlotAndNothingIsLeft) {
  for (const char* id : {"a", "b", "c"}) submit(request(id, "sleep 0.3; date +%s%N"));
  // With one slot only one of them may be running at a time.
  auto counts = store_->task_counts(kLocalAccount, "j");
  ASSERT_TRUE(counts.ok());
  EXPECT_LE((*counts)[TaskState::Running] + (*counts)[TaskState::Preparing], 1);
  auto a = wait_done("a"), b = wait_done("b"), c = wait_done("c");
  for (const auto* t : {&a, &b, &c}) EXPECT_EQ(t->execution_info.result, TaskResult::Success);
  EXPECT_LE(*a.execution_info.end_time, *b.execution_info.start_time);
  EXPECT_LE(*b.execution_info.end_time, *c.execution_info.start_time);
  // TearDown checks that no supervisor or task process of this data dir remains.
}

TEST_F(EngineTest, DependencyWaitsForSuccess) {
  submit(request("first", "sleep 0.5"));
  auto r = request("second", "true");
  r.after = {"j/first"};
  config_.cpu_slots = 2;
  engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  submit(r);
  auto first = wait_done("first"), second = wait_done("second");
  EXPECT_EQ(second.execution_info.result, TaskResult::Success);
  EXPECT_LE(*first.execution_info.end_time, *second.execution_info.start_time);
}

TEST_F(EngineTest, DependencyFailureFailsTheDependent) {
  submit(request("first", "exit 1"));
  auto r = request("second", "true");
  r.after = {"first"};
  submit(r);
  wait_done("first");
  auto second = wait_done("second");
  ASSERT_TRUE(second.execution_info.failure_info);
  EXPECT_EQ(second.execution_info.failure_info->code, "TaskDependencyFailed");
}

TEST_F(EngineTest, StopEscalatesToSigkill) {
  submit(request("stubborn", "trap '' TERM; echo ready; sleep 60 & wait; sleep 60"));
  wait_state("stubborn", TaskState::Running);
  auto run = run_of("stubborn");
  ASSERT_TRUE(run);
  auto started = std::chrono::steady_clock::now();
  ASSERT_TRUE(engine_->request_stop("j", "stubborn", std::chrono::seconds(1)).ok());
  auto t = wait_done("stubborn", 15s);
  EXPECT_GE(std::chrono::steady_clock::now() - started, 900ms);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "TaskTerminated");
  EXPECT_FALSE(group_alive(static_cast<pid_t>(run->pgid)));
}

TEST_F(EngineTest, StopOfQueuedTaskCompletesIt) {
  submit(request("running", "sleep 60"));
  submit(request("queued", "true"));
  ASSERT_TRUE(engine_->request_stop("j", "queued").ok());
  auto q = wait_done("queued");
  EXPECT_EQ(q.execution_info.failure_info->code, "TaskTerminated");
  EXPECT_FALSE(q.execution_info.start_time);
  ASSERT_TRUE(engine_->request_stop("j", "running", std::chrono::seconds(1)).ok());
  wait_done("running");
}

TEST_F(EngineTest, KilledSupervisorIsReadoptedAndTheRunEnds) {
  submit(request("orphan", "sleep 1.5"));
  wait_state("orphan", TaskState::Running);
  auto run = run_of("orphan");
  ASSERT_TRUE(run);
  ASSERT_EQ(kill(static_cast<pid_t>(run->supervisor_pid), SIGKILL), 0);
  reap_while([&] {
    return process_matches(static_cast<pid_t>(run->supervisor_pid), run->supervisor_start);
  });
  ASSERT_TRUE(engine_->schedule().ok());  // what any trainyard process does when it starts
  auto adopted = run_of("orphan");
  ASSERT_TRUE(adopted);
  EXPECT_NE(adopted->supervisor_pid, run->supervisor_pid);
  auto t = wait_done("orphan");
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "ExitCodeUnknown");
}

TEST_F(EngineTest, SupervisorAndTaskBothGoneIsMarkedFailed) {
  submit(request("lost", "sleep 30"));
  wait_state("lost", TaskState::Running);
  auto run = run_of("lost");
  ASSERT_TRUE(run);
  kill_supervisor_and_task(*run);
  ASSERT_TRUE(engine_->schedule().ok());
  auto t = wait_done("lost");
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "SupervisorLost");
}

// Found by bench/crash_local.py: the supervisor killed, then the task's leader exits; what the task
// left in its process group lived on, since only a supervisor ended the group after its leader.
TEST_F(EngineTest, ALostRunsLeftoverGroupIsEnded) {
  submit(request("leftover", "sleep 300 & sleep 0.3"));
  wait_state("leftover", TaskState::Running);
  auto run = run_of("leftover");
  ASSERT_TRUE(run);
  kill(static_cast<pid_t>(run->supervisor_pid), SIGKILL);
  const auto leader = static_cast<pid_t>(run->pid);
  reap_while([&] { return process_matches(leader, run->start_ticks); });
  ASSERT_FALSE(process_matches(leader, run->start_ticks));
  ASSERT_TRUE(group_alive(static_cast<pid_t>(run->pgid)));  // the background sleep
  ASSERT_TRUE(engine_->schedule().ok());
  auto t = wait_done("leftover");
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "SupervisorLost");
  reap_while([&] { return group_alive(static_cast<pid_t>(run->pgid)); });
  EXPECT_FALSE(group_alive(static_cast<pid_t>(run->pgid)));
}

TEST_F(EngineTest, QueuedWorkStartsWithNoEngineProcessAlive) {
  // The submitter (this engine) goes away at once; supervisors alone drain the queue.
  for (const char* id : {"q1", "q2", "q3"}) submit(request(id, "true"));
  engine_.reset();
  std::this_thread::sleep_for(100ms);
  engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  for (const char* id : {"q1", "q2", "q3"}) {
    auto deadline = std::chrono::steady_clock::now() + 20s;
    for (;;) {
      auto t = store_->task(kLocalAccount, "j", id);
      if (t.ok() && t->has_value() && (*t)->state == TaskState::Completed) break;
      ASSERT_LT(std::chrono::steady_clock::now(), deadline) << id;
      std::this_thread::sleep_for(50ms);
    }
  }
}

}  // namespace
}  // namespace trainyard::test::engine_scheduling_test
