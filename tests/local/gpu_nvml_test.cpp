// NvmlGpuSource against fake libnvidia-ml.so.1 builds (tests/local/fake_nvml), loaded through
// the same dlopen path as the real driver library.
#include <dlfcn.h>

#include <cstdlib>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "local/gpu_monitor.hpp"
#include "local/nvml_source.hpp"

namespace trainyard::gpu_nvml_test {
namespace {

constexpr uint64_t kGiB = 1ULL << 30;

// Sets FAKE_NVML_* (and other) variables for one test and clears them afterwards.
class ScopedEnv {
 public:
  ScopedEnv(std::initializer_list<std::pair<const std::string, std::string>> vars) : vars_(vars) {
    for (const auto& [k, v] : vars_) setenv(k.c_str(), v.c_str(), 1);
  }
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;
  ~ScopedEnv() {
    for (const auto& [k, v] : vars_) unsetenv(k.c_str());
  }

 private:
  std::map<std::string, std::string> vars_;
};

ManualClock& test_clock() {
  static ManualClock clock(from_micros(1'700'000'000'000'000));
  return clock;
}

std::unique_ptr<NvmlGpuSource> open_fake(const char* path) {
  auto src = NvmlGpuSource::open(path, &test_clock());
  EXPECT_TRUE(src.ok()) << (src.ok() ? "" : src.error().message);
  return src.ok() ? std::move(src).value() : nullptr;
}

std::vector<GpuSample> sample_fake(const char* path) {
  auto src = open_fake(path);
  if (!src) return {};
  auto samples = src->sample();
  EXPECT_TRUE(samples.ok()) << (samples.ok() ? "" : samples.error().message);
  return samples.ok() ? *samples : std::vector<GpuSample>{};
}

TEST(Nvml, MissingLibraryGivesClearError) {
  auto src = NvmlGpuSource::open("libtrainyard-missing-nvml.so.1");
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.error().message,
            "NVML not available: libtrainyard-missing-nvml.so.1: cannot open shared object file: "
            "No such file or directory");
}

TEST(Nvml, LibraryWithoutNvmlIsRefused) {
  auto src = NvmlGpuSource::open("libm.so.6");
  ASSERT_FALSE(src.ok());
  EXPECT_NE(src.error().message.find("NVML not available: libm.so.6 lacks nvmlInit"),
            std::string::npos)
      << src.error().message;
}

TEST(Nvml, InitFailureIsReported) {
  ScopedEnv env({{"FAKE_NVML_INIT_RC", "9"}});
  auto src = NvmlGpuSource::open(FAKE_NVML_FULL);
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.error().message, "NVML not available: nvmlInit_v2: Driver Not Loaded (9)");
  EXPECT_EQ(src.error().kind, ErrorKind::NotFound) << "no driver: a machine without GPUs";
}

TEST(Nvml, InitFailureWithADriverIsAnErrorNotAbsence) {
  ScopedEnv env({{"FAKE_NVML_INIT_RC", "999"}});
  auto src = NvmlGpuSource::open(FAKE_NVML_FULL);
  ASSERT_FALSE(src.ok());
  EXPECT_EQ(src.error().kind, ErrorKind::Io);
  EXPECT_EQ(src.error().message, "NVML cannot be started: nvmlInit_v2: Unknown Error (999)");
}

TEST(Nvml, AllSymbolsFillEveryField) {
  ScopedEnv env({{"FAKE_NVML_PROCS", "0:101:1048576,0:102:-"}});
  auto src = open_fake(FAKE_NVML_FULL);
  ASSERT_TRUE(src);
  EXPECT_EQ(src->describe(), std::string(FAKE_NVML_FULL) +
                                 ": nvmlInit_v2 nvmlShutdown nvmlDeviceGetCount_v2 "
                                 "nvmlDeviceGetHandleByIndex_v2 nvmlErrorString nvmlDeviceGetName "
                                 "nvmlDeviceGetUUID nvmlDeviceGetUtilizationRates "
                                 "nvmlDeviceGetMemoryInfo_v2 nvmlDeviceGetMemoryInfo "
                                 "nvmlDeviceGetTemperature nvmlDeviceGetPowerUsage "
                                 "nvmlDeviceGetPowerManagementLimit "
                                 "nvmlDeviceGetComputeRunningProcesses_v3");
  auto samples = src->sample();
  ASSERT_TRUE(samples.ok());
  ASSERT_EQ(samples->size(), 1u);
  const GpuSample& s = samples->front();
  EXPECT_EQ(s.index, 0);
  EXPECT_EQ(s.name, "Fake GPU 0");
  EXPECT_EQ(s.uuid, "GPU-fake-0");
  EXPECT_EQ(s.util_percent, 5u);
  EXPECT_EQ(s.mem_util_percent, 3u);
  EXPECT_EQ(s.temperature_c, 40u);
  EXPECT_EQ(s.mem_used, kGiB);  // `_v2`: reserved memory not counted
  EXPECT_EQ(s.mem_total, 80 * kGiB);
  EXPECT_EQ(s.power_w, 100.0);
  EXPECT_EQ(s.power_limit_w, 300.0);
  EXPECT_TRUE(s.error.empty());
  EXPECT_EQ(s.at, test_clock().now());
  ASSERT_TRUE(s.processes_known);
  ASSERT_EQ(s.processes.size(), 2u);
  EXPECT_EQ(s.processes[0].pid, 101);
  EXPECT_EQ(s.processes[0].used_memory, 1048576u);
  EXPECT_EQ(s.processes[1].pid, 102);
  EXPECT_EQ(s.processes[1].used_memory, std::nullopt);  // NVML_VALUE_NOT_AVAILABLE
}

TEST(Nvml, LegacyOnlySymbolsStillWork) {
  ScopedEnv env({{"FAKE_NVML_PROCS", "0:101:4096,0:102:8192,0:103:-"}});
  auto src = open_fake(FAKE_NVML_LEGACY);
  ASSERT_TRUE(src);
  std::string described = src->describe();
  EXPECT_NE(described.find(" nvmlInit "), std::string::npos) << described;
  EXPECT_NE(described.find("nvmlDeviceGetComputeRunningProcesses"), std::string::npos);
  EXPECT_EQ(described.find("_v"), std::string::npos) << described;
  auto samples = src->sample();
  ASSERT_TRUE(samples.ok());
  ASSERT_EQ(samples->size(), 1u);
  const GpuSample& s = samples->front();
  EXPECT_EQ(s.mem_used, kGiB + kGiB / 2);    // legacy call counts reserved memory
  EXPECT_EQ(s.power_limit_w, std::nullopt);  // symbol absent
  EXPECT_EQ(s.power_w, 100.0);
  // The 16-byte legacy struct: a wrong layout would scramble the second and third entries.
  ASSERT_EQ(s.processes.size(), 3u);
  EXPECT_EQ(s.processes[1].pid, 102);
  EXPECT_EQ(s.processes[1].used_memory, 8192u);
  EXPECT_EQ(s.processes[2].pid, 103);
  EXPECT_EQ(s.processes[2].used_memory, std::nullopt);
}

TEST(Nvml, ErrorCodesLeaveFieldsUnknown) {
  ScopedEnv env({{"FAKE_NVML_FAIL", "temperature=3,power=3,util=3,power_limit=4,processes=3"}});
  auto samples = sample_fake(FAKE_NVML_FULL);
  ASSERT_EQ(samples.size(), 1u);
  const GpuSample& s = samples.front();
  EXPECT_EQ(s.temperature_c, std::nullopt);
  EXPECT_EQ(s.power_w, std::nullopt);
  EXPECT_EQ(s.power_limit_w, std::nullopt);
  EXPECT_EQ(s.util_percent, std::nullopt);
  EXPECT_EQ(s.mem_util_percent, std::nullopt);
  EXPECT_FALSE(s.processes_known);
  EXPECT_EQ(s.name, "Fake GPU 0");
  EXPECT_EQ(s.mem_used, kGiB);
}

TEST(Nvml, MemoryV2RejectedFallsBackToLegacyCall) {
  ScopedEnv env({{"FAKE_NVML_FAIL", "memory_v2=25"}});
  auto samples = sample_fake(FAKE_NVML_FULL);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].mem_used, kGiB + kGiB / 2);
  EXPECT_EQ(samples[0].mem_total, 80 * kGiB);
}

TEST(Nvml, MemoryUnknownWhenBothCallsFail) {
  ScopedEnv env({{"FAKE_NVML_FAIL", "memory_v2=3,memory=3,name=3,uuid=3"}});
  auto samples = sample_fake(FAKE_NVML_FULL);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].mem_used, std::nullopt);
  EXPECT_EQ(samples[0].mem_total, std::nullopt);
  EXPECT_EQ(samples[0].name, "");
  EXPECT_EQ(samples[0].uuid, "");
}

TEST(Nvml, DriverStringsAreSanitized) {
  ScopedEnv env({{"FAKE_NVML_NAME", "Evil\x1b]0;pwned\x07 GPU\x1b[2J"}});
  auto samples = sample_fake(FAKE_NVML_FULL);
  ASSERT_EQ(samples.size(), 1u);
  EXPECT_EQ(samples[0].name.find('\x1b'), std::string::npos) << samples[0].name;
  EXPECT_EQ(samples[0].name.find('\x07'), std::string::npos) << samples[0].name;
  EXPECT_EQ(samples[0].name.rfind("Evil", 0), 0u) << samples[0].name;
}

TEST(Nvml, SeveralGpusWithOneLost) {
  ScopedEnv env({{"FAKE_NVML_GPUS", "3"},
                 {"FAKE_NVML_FAIL", "handle:1=15,temperature:2=3"},
                 {"FAKE_NVML_PROCS", "0:10:1,2:20:2,2:21:3"}});
  auto samples = sample_fake(FAKE_NVML_FULL);
  ASSERT_EQ(samples.size(), 3u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(samples[i].index, i);
  EXPECT_EQ(samples[0].uuid, "GPU-fake-0");
  EXPECT_EQ(samples[0].temperature_c, 40u);
  EXPECT_EQ(samples[1].error, "nvmlDeviceGetHandleByIndex: GPU is lost (15)");
  EXPECT_EQ(samples[1].uuid, "");
  EXPECT_EQ(samples[1].util_percent, std::nullopt);
  EXPECT_EQ(samples[2].uuid, "GPU-fake-2");
  EXPECT_EQ(samples[2].util_percent, 25u);
  EXPECT_EQ(samples[2].temperature_c, std::nullopt);
  EXPECT_EQ(samples[2].power_w, 103.0);
  ASSERT_EQ(samples[2].processes.size(), 2u);
  EXPECT_EQ(samples[2].processes[1].pid, 21);
  EXPECT_EQ(samples[0].at, samples[2].at);
}

TEST(Nvml, ProcessBufferGrowsBeyondFirstGuess) {
  std::string procs;
  for (int pid = 1000; pid < 1100; ++pid)
    procs += "0:" + std::to_string(pid) + ":" + std::to_string(pid * 2) + ",";
  ScopedEnv env({{"FAKE_NVML_PROCS", procs}});
  auto samples = sample_fake(FAKE_NVML_FULL);
  ASSERT_EQ(samples.size(), 1u);
  ASSERT_EQ(samples[0].processes.size(), 100u);
  EXPECT_EQ(samples[0].processes[99].pid, 1099);
  EXPECT_EQ(samples[0].processes[99].used_memory, 2198u);
}

TEST(Nvml, CountFailureFailsTheSample) {
  ScopedEnv env({{"FAKE_NVML_FAIL", "count=999"}});
  auto src = open_fake(FAKE_NVML_FULL);
  ASSERT_TRUE(src);
  auto samples = src->sample();
  ASSERT_FALSE(samples.ok());
  EXPECT_EQ(samples.error().message, "nvmlDeviceGetCount: Unknown Error (999)");
}

TEST(Nvml, ShutdownOnDestruction) {
  // Our own handle keeps the fake loaded, so its counters survive the source's dlclose.
  void* lib = dlopen(FAKE_NVML_FULL, RTLD_NOW | RTLD_LOCAL);
  ASSERT_NE(lib, nullptr);
  auto live = reinterpret_cast<int (*)()>(dlsym(lib, "fake_nvml_live"));
  ASSERT_NE(live, nullptr);
  int before = live();
  {
    auto src = open_fake(FAKE_NVML_FULL);
    EXPECT_EQ(live(), before + 1);
  }
  EXPECT_EQ(live(), before);
  dlclose(lib);
}

TEST(Nvml, LibraryFromEnvironment) {
  {
    ScopedEnv env({{"TRAINYARD_NVML_LIB", "/opt/nvml/libnvidia-ml.so.1"}});
    EXPECT_EQ(nvml_library_from_env(), "/opt/nvml/libnvidia-ml.so.1");
  }
  ScopedEnv empty({{"TRAINYARD_NVML_LIB", ""}});
  EXPECT_EQ(nvml_library_from_env(), "libnvidia-ml.so.1");
}

TEST(Nvml, MonitorOverFakeNvml) {
  ScopedEnv env({{"FAKE_NVML_GPUS", "2"}});
  GpuMonitor monitor(open_nvml_gpu_source(FAKE_NVML_FULL), {.history_limit = 3});
  for (int i = 0; i < 5; ++i) monitor.poll_once();
  auto snap = monitor.snapshot();
  EXPECT_TRUE(snap->available);
  ASSERT_EQ(snap->latest.size(), 2u);
  ASSERT_EQ(snap->history.size(), 2u);
  EXPECT_EQ(snap->history[1].uuid, "GPU-fake-1");
  EXPECT_EQ(snap->history[1].points.size(), 3u);
  EXPECT_EQ(snap->history[1].points.back().util_percent, 15u);
}

TEST(Nvml, MonitorWithoutNvmlIsUnavailable) {
  GpuMonitor monitor(open_nvml_gpu_source("libtrainyard-missing-nvml.so.1"));
  monitor.start();
  monitor.poll_once();
  auto snap = monitor.snapshot();
  EXPECT_FALSE(snap->available);
  EXPECT_EQ(snap->generation, 0u);
  EXPECT_NE(snap->last_error.find("NVML not available"), std::string::npos);
}

}  // namespace
}  // namespace trainyard::gpu_nvml_test
