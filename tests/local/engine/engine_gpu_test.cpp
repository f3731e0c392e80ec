// GPU isolation fails closed: a GPU task starts only with CUDA_VISIBLE_DEVICES naming exactly its
// GPUs. The supervisors read the fake NVML (two GPUs, GPU-fake-0 and GPU-fake-1); this engine's
// probe stands for the scheduler's.
#include "engine_fixture.hpp"

namespace trainyard::test::engine_gpu_test {
namespace {

class GpuTest : public EngineTest {
 protected:
  void SetUp() override {
    EngineTest::SetUp();
    fail_file_ = dir_ + "/nvml-fail";
    setenv("TRAINYARD_NVML_LIB", FAKE_NVML_FULL, 1);
    setenv("FAKE_NVML_GPUS", "2", 1);
    setenv("FAKE_NVML_FAIL_FILE", fail_file_.c_str(), 1);
    config_.gpu_probe = [this]() -> Result<std::vector<GpuSlot>> {
      if (probe_fails_) return make_error(ErrorKind::Io, "nvmlDeviceGetCount: Unknown Error (999)");
      return std::vector<GpuSlot>{{0, "GPU-fake-0", false}, {1, "GPU-fake-1", false}};
    };
    engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  }
  void TearDown() override {
    for (const char* n : {"TRAINYARD_NVML_LIB", "FAKE_NVML_GPUS", "FAKE_NVML_FAIL_FILE",
                          "FAKE_NVML_INIT_MARK", "FAKE_NVML_INIT_DELAY_MS"})
      unsetenv(n);
    EngineTest::TearDown();
  }

  void break_nvml(const std::string& failures) { std::ofstream(fail_file_) << failures; }
  void mend_nvml() { std::filesystem::remove(fail_file_); }

  /// The run's waiting reason once it has one (empty after 10 s).
  std::string wait_for_reason(const std::string& id) {
    for (int i = 0; i < 400; ++i) {
      auto run = run_of(id);
      if (run && !run->waiting_reason.empty()) return run->waiting_reason;
      std::this_thread::sleep_for(25ms);
    }
    return "";
  }

  SubmitRequest show_gpus(const std::string& id) {
    return request(id, "echo \"[$CUDA_VISIBLE_DEVICES]\"");
  }

  std::string stdout_of(const std::string& id) { return read(run_paths(dir_, "j", id).stdout_txt); }

  bool probe_fails_ = false;
  std::string fail_file_;
};

TEST_F(GpuTest, AFailingProbeKeepsGpuTasksQueuedWithTheReason) {
  probe_fails_ = true;
  submit(show_gpus("queued"));
  ASSERT_TRUE(engine_->schedule().ok());
  auto t = store_->task(kLocalAccount, "j", "queued");
  ASSERT_TRUE(t.ok() && t->has_value());
  EXPECT_EQ((*t)->state, TaskState::Active);
  auto run = run_of("queued");
  ASSERT_TRUE(run);
  EXPECT_NE(run->waiting_reason.find("nvmlDeviceGetCount: Unknown Error (999)"), std::string::npos)
      << run->waiting_reason;
  EXPECT_EQ(run->supervisor_pid, 0);
  probe_fails_ = false;
  ASSERT_TRUE(engine_->schedule().ok());
  EXPECT_EQ(wait_done("queued").execution_info.result, TaskResult::Success);
  EXPECT_EQ(stdout_of("queued"), "[GPU-fake-0]\n");
  EXPECT_EQ(run_of("queued")->waiting_reason, "");
}

TEST_F(GpuTest, ASupervisorThatCannotMapItsGpusWaitsInsteadOfStartingUnconfined) {
  // NVML failing to start, failing to count, and giving no UUID for the task's GPU.
  const std::pair<const char*, const char*> breakages[] = {
      {"init=999", "nvmlInit"}, {"count=999", "nvmlDeviceGetCount"}, {"uuid:0=999", "UUID"}};
  int n = 0;
  for (const auto& [failures, why] : breakages) {
    SCOPED_TRACE(failures);
    const std::string id = "gpu" + std::to_string(n++);
    break_nvml(failures);
    submit(show_gpus(id));
    auto reason = wait_for_reason(id);
    EXPECT_NE(reason.find(why), std::string::npos) << reason;
    auto t = store_->task(kLocalAccount, "j", id);
    ASSERT_TRUE(t.ok() && t->has_value());
    EXPECT_NE((*t)->state, TaskState::Completed);
    EXPECT_FALSE(std::filesystem::exists(run_paths(dir_, "j", id).stdout_txt)) << "it started";
    mend_nvml();
    EXPECT_EQ(wait_done(id).execution_info.result, TaskResult::Success);
    EXPECT_EQ(stdout_of(id), "[GPU-fake-0]\n");
    EXPECT_EQ(run_of(id)->waiting_reason, "");
  }
}

TEST_F(GpuTest, AStopWhileTheSupervisorWaitsForNvmlEndsTheTaskUnstarted) {
  break_nvml("count=999");
  submit(show_gpus("stuck"));
  ASSERT_FALSE(wait_for_reason("stuck").empty());
  ASSERT_TRUE(engine_->request_stop("j", "stuck").ok());
  auto t = wait_done("stuck", 10s);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "TaskTerminated");
  EXPECT_FALSE(std::filesystem::exists(run_paths(dir_, "j", "stuck").stdout_txt));
}

// `stop --grace` while the supervisor is between claiming the run and recording it running
// (here: opening NVML to map its GPUs) keeps the grace it was given.
TEST_F(GpuTest, AStopGraceGivenWhileTheRunIsClaimedIsKept) {
  const std::string mark = dir_ + "/nvml-init";
  setenv("FAKE_NVML_INIT_MARK", mark.c_str(), 1);
  setenv("FAKE_NVML_INIT_DELAY_MS", "1500", 1);
  config_.default_grace = std::chrono::seconds(1);
  engine_ = std::make_unique<LocalEngine>(*store_, config_, clock_);
  submit(request("claimed", "trap 'echo term' TERM; sleep 30 & wait; sleep 30"));
  for (int i = 0; i < 400 && !std::filesystem::exists(mark); ++i) std::this_thread::sleep_for(25ms);
  ASSERT_TRUE(std::filesystem::exists(mark)) << "the supervisor never opened NVML";
  auto asked = std::chrono::steady_clock::now();
  ASSERT_TRUE(engine_->request_stop("j", "claimed", std::chrono::seconds(4)).ok());
  auto t = wait_done("claimed", 20s);
  // The SIGKILL comes 4 s after the SIGTERM; with the submit-time grace it came after 1 s.
  EXPECT_GE(std::chrono::steady_clock::now() - asked, 4s);
  ASSERT_TRUE(t.execution_info.failure_info);
  EXPECT_EQ(t.execution_info.failure_info->code, "TaskTerminated");
  EXPECT_EQ(stdout_of("claimed"), "term\n");
}

}  // namespace
}  // namespace trainyard::test::engine_gpu_test
