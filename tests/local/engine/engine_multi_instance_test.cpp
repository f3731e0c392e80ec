// Multi-instance tasks on the local engine, run as Batch runs them: the coordination command in
// every instance, then the command in the primary alone; each instance on its own slots.
#include <stdlib.h>

#include "engine_fixture.hpp"

namespace trainyard::test::engine_multi_instance_test {
namespace {

class MultiInstanceTest : public EngineTest {
 protected:
  void use_slots(int slots) {
    config_.cpu_slots = slots;
    engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  }

  SubmitRequest multi(const std::string& id, int instances, const std::string& coordination,
                      const std::string& cmd) {
    auto r = request(id, cmd);
    r.instances = instances;
    r.coordination_command = coordination;
    return r;
  }

  std::vector<Subtask> subtasks_of(const std::string& id) {
    auto s = store_->subtasks(kLocalAccount, "j", id);
    EXPECT_TRUE(s.ok());
    return s.ok() ? *s : std::vector<Subtask>{};
  }

  std::string shared(const std::string& id, const std::string& file) {
    return read(run_paths(dir_, "j", id).dir + "/" + file);
  }
};

// Each instance writes what it was given into the shared directory; the primary's command
// checks that every instance's coordination command has finished before it runs.
constexpr const char* kRecordInstance =
    "echo \"$AZ_BATCH_IS_CURRENT_NODE_MASTER $AZ_BATCH_HOST_LIST $AZ_BATCH_MASTER_NODE "
    "$TRAINYARD_INSTANCE_COUNT\" "
    "> \"$AZ_BATCH_TASK_SHARED_DIR/coord-$TRAINYARD_INSTANCE_INDEX\"";

TEST_F(MultiInstanceTest, CoordinationRunsEverywhereThenTheCommandOnThePrimaryOnly) {
  use_slots(3);
  submit(multi("mi", 3, kRecordInstance,
               "ls \"$AZ_BATCH_TASK_SHARED_DIR\" | grep -c coord- ; "
               "echo primary $TRAINYARD_INSTANCE_INDEX"));
  auto t = wait_done("mi");
  EXPECT_EQ(t.execution_info.result, TaskResult::Success);
  ASSERT_TRUE(t.multi_instance);
  EXPECT_EQ(t.multi_instance->number_of_instances, 3);
  EXPECT_EQ(read(run_paths(dir_, "j", "mi").stdout_txt), "3\nprimary 0\n");
  const std::string hosts = "127.0.0.1,127.0.0.1,127.0.0.1 127.0.0.1:6000";
  EXPECT_EQ(shared("mi", "coord-0"), "true " + hosts + " 3\n");
  EXPECT_EQ(shared("mi", "coord-1"), "false " + hosts + " 3\n");
  EXPECT_EQ(shared("mi", "coord-2"), "false " + hosts + " 3\n");
  auto subs = subtasks_of("mi");
  ASSERT_EQ(subs.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_EQ(subs[i].id, i + 1);
    EXPECT_EQ(subs[i].state, TaskState::Completed);
    EXPECT_EQ(subs[i].execution_info.exit_code, 0);
    EXPECT_EQ(subs[i].execution_info.result, TaskResult::Success);
  }
}

TEST_F(MultiInstanceTest, AFailedCoordinationCommandFailsTheTaskAndSkipsTheCommand) {
  use_slots(3);
  submit(multi("fail", 3, "[ \"$TRAINYARD_INSTANCE_INDEX\" = 2 ] && exit 4; exit 0",
               "touch \"$AZ_BATCH_TASK_SHARED_DIR/ran\""));
  auto t = wait_done("fail");
  EXPECT_EQ(t.execution_info.result, TaskResult::Failure);
  EXPECT_EQ(t.execution_info.exit_code, 4);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_NE(t.execution_info.failure_info->message.find("instance 2"), std::string::npos);
  EXPECT_FALSE(std::filesystem::exists(run_paths(dir_, "j", "fail").dir + "/ran"));
  auto subs = subtasks_of("fail");
  ASSERT_EQ(subs.size(), 2u);
  EXPECT_EQ(subs[0].execution_info.result, TaskResult::Success);
  EXPECT_EQ(subs[1].execution_info.exit_code, 4);
  EXPECT_EQ(subs[1].execution_info.result, TaskResult::Failure);
}

TEST_F(MultiInstanceTest, ServicesLeftByCoordinationEndWithTheTask) {
  use_slots(2);
  // A coordination command typically starts a daemon and exits; it must not outlive the task.
  submit(multi("svc", 2, "(sleep 61.2345 &) ; exit 0", "true"));
  auto t = wait_done("svc");
  EXPECT_EQ(t.execution_info.result, TaskResult::Success);
  for (int i = 0; i < 100 && !processes_mentioning("61.2345").empty(); ++i)
    std::this_thread::sleep_for(20ms);
  EXPECT_TRUE(processes_mentioning("61.2345").empty());
}

TEST_F(MultiInstanceTest, StopEndsEveryInstance) {
  use_slots(2);
  submit(multi("stop", 2, "exec sleep 62.3456", "true"));
  wait_state("stop", TaskState::Running);
  for (int i = 0; i < 200 && processes_mentioning("62.3456").size() < 2; ++i)
    std::this_thread::sleep_for(20ms);
  ASSERT_EQ(processes_mentioning("62.3456").size(), 2u);
  ASSERT_TRUE(engine_->request_stop("j", "stop").ok());
  auto t = wait_done("stop");
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "TaskTerminated");
  EXPECT_TRUE(processes_mentioning("62.3456").empty());
  auto subs = subtasks_of("stop");
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].state, TaskState::Completed);
  EXPECT_EQ(subs[0].execution_info.result, TaskResult::Failure);
}

TEST_F(MultiInstanceTest, ALostSupervisorLeavesNoInstanceBehind) {
  use_slots(2);
  submit(multi("lost", 2, "exec sleep 63.4567", "true"));
  wait_state("lost", TaskState::Running);
  for (int i = 0; i < 200 && processes_mentioning("63.4567").size() < 2; ++i)
    std::this_thread::sleep_for(20ms);
  auto run = run_of("lost");
  ASSERT_TRUE(run);
  EXPECT_FALSE(run->instance_groups.empty());
  kill(static_cast<pid_t>(run->supervisor_pid), SIGKILL);
  for (int i = 0;
       i < 100 && process_matches(static_cast<pid_t>(run->supervisor_pid), run->supervisor_start);
       ++i) {
    engine_->reap_children();
    std::this_thread::sleep_for(20ms);
  }
  ASSERT_TRUE(engine_->schedule().ok());  // what the next trainyard process does
  auto t = wait_done("lost");
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "SupervisorLost");
  EXPECT_TRUE(processes_mentioning("63.4567").empty());
  auto subs = subtasks_of("lost");
  ASSERT_EQ(subs.size(), 1u);
  EXPECT_EQ(subs[0].state, TaskState::Completed);
}

TEST_F(MultiInstanceTest, EachInstanceGetsItsOwnGpusAndThePrimaryCommandSeesAll) {
  setenv("TRAINYARD_NVML_LIB", FAKE_NVML_FULL, 1);
  setenv("FAKE_NVML_GPUS", "4", 1);
  config_.gpu_probe = [] {
    std::vector<GpuSlot> out;
    for (int i = 0; i < 4; ++i) out.push_back(GpuSlot{i, "GPU-fake-" + std::to_string(i), false});
    return out;
  };
  use_slots(1);
  auto r = multi("gpu", 2,
                 "echo $CUDA_VISIBLE_DEVICES > \"$AZ_BATCH_TASK_SHARED_DIR/gpus-"
                 "$TRAINYARD_INSTANCE_INDEX\"",
                 "echo $CUDA_VISIBLE_DEVICES");
  r.gpus = 2;
  submit(r);
  auto t = wait_done("gpu");
  unsetenv("TRAINYARD_NVML_LIB");
  unsetenv("FAKE_NVML_GPUS");
  EXPECT_EQ(t.execution_info.result, TaskResult::Success);
  EXPECT_EQ(t.required_slots, 2);
  EXPECT_EQ(shared("gpu", "gpus-0"), "GPU-fake-0,GPU-fake-1\n");
  EXPECT_EQ(shared("gpu", "gpus-1"), "GPU-fake-2,GPU-fake-3\n");
  EXPECT_EQ(read(run_paths(dir_, "j", "gpu").stdout_txt),
            "GPU-fake-0,GPU-fake-1,GPU-fake-2,GPU-fake-3\n");
}

TEST_F(MultiInstanceTest, MoreInstancesThanSlotsIsRefusedAtSubmission) {
  use_slots(2);
  auto t = engine_->submit(multi("big", 3, "", "true"));
  ASSERT_FALSE(t.ok());
  EXPECT_EQ(t.error().kind, ErrorKind::Usage);
  EXPECT_NE(t.error().message.find("3 instances"), std::string::npos) << t.error().message;
}

TEST_F(MultiInstanceTest, InstancesWaitForEnoughFreeSlots) {
  use_slots(2);
  submit(request("first", "sleep 0.5"));
  submit(multi("both", 2, "", "echo ran"));
  EXPECT_EQ(wait_state("both", TaskState::Active).state, TaskState::Active);
  auto first = wait_done("first");
  EXPECT_EQ(first.execution_info.result, TaskResult::Success);
  auto t = wait_done("both");
  EXPECT_EQ(t.execution_info.result, TaskResult::Success);
  ASSERT_TRUE(t.execution_info.start_time && first.execution_info.end_time);
  EXPECT_GE(*t.execution_info.start_time, *first.execution_info.end_time);
}

}  // namespace
}  // namespace trainyard::test::engine_multi_instance_test
