// A fake libnvidia-ml.so.1 for tests, driven by environment variables read at each nvmlInit:
//   FAKE_NVML_INIT_RC=9             nvmlInit fails with that code
//   FAKE_NVML_GPUS=3                number of GPUs (default 1)
//   FAKE_NVML_FAIL=temperature=3,handle:1=15
//                                   make a call fail (all GPUs, or `call:gpu` for one); calls:
//                                   count handle name uuid util memory memory_v2 temperature
//                                   power power_limit processes
//   FAKE_NVML_NAME=text             product name of every GPU (default `Fake GPU <index>`)
//   FAKE_NVML_PROCS=0:101:1048576,1:202:-
//                                   compute processes as gpu:pid:bytes (`-`: not available)
//   FAKE_NVML_FAIL_FILE=path        while that file exists, its text adds failures as
//                                   FAKE_NVML_FAIL does (`init=N` too), read at every call, so a
//                                   test can break and mend NVML under a running process
//   FAKE_NVML_INIT_MARK=path        nvmlInit creates that file (a test sees the call begin) ...
//   FAKE_NVML_INIT_DELAY_MS=1500    ... and then takes that long
// Built twice: with every symbol, and with FAKE_NVML_LEGACY_ONLY (no _v2/_v3, no power limit),
// like the 430/440 drivers. Layouts are written out from nvml.h independently of trainyard's.
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <string>
#include <thread>
#include <utility>
#include <vector>

extern "C" {
typedef int nvmlReturn_t;
struct FakeDevice {
  unsigned index;
};
typedef FakeDevice* nvmlDevice_t;
typedef struct {
  unsigned int gpu, memory;
} nvmlUtilization_t;
typedef struct {
  unsigned long long total, free, used;
} nvmlMemory_t;
typedef struct {
  unsigned int version;
  unsigned long long total, reserved, free, used;
} nvmlMemory_v2_t;
typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
} nvmlProcessInfo_v1_t;
typedef struct {
  unsigned int pid;
  unsigned long long usedGpuMemory;
  unsigned int gpuInstanceId, computeInstanceId;
} nvmlProcessInfo_v2_t;
}

namespace {

constexpr nvmlReturn_t kSuccess = 0, kInvalidArgument = 2, kUninitialized = 1,
                       kInsufficientSize = 7;
constexpr unsigned long long kGiB = 1ULL << 30;

struct Proc {
  unsigned gpu, pid;
  unsigned long long mem;
};

struct State {
  int live = 0;  // nvmlInit calls minus nvmlShutdown calls
  int inits = 0;
  unsigned gpus = 1;
  std::map<std::string, nvmlReturn_t> fail;  // "call" or "call:gpu" -> code
  std::vector<Proc> procs;
  std::string name;
  FakeDevice devices[64];
};
State g;

std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out;
  size_t start = 0;
  while (start <= s.size()) {
    size_t end = s.find(sep, start);
    if (end == std::string::npos) end = s.size();
    if (end > start) out.push_back(s.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string env(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

void load_config() {
  std::string gpus = env("FAKE_NVML_GPUS");
  g.gpus = gpus.empty() ? 1u : static_cast<unsigned>(std::strtoul(gpus.c_str(), nullptr, 10));
  if (g.gpus > 64) g.gpus = 64;
  for (unsigned i = 0; i < 64; ++i) g.devices[i].index = i;
  g.fail.clear();
  for (const auto& item : split(env("FAKE_NVML_FAIL"), ',')) {
    auto eq = item.find('=');
    if (eq != std::string::npos) g.fail[item.substr(0, eq)] = std::atoi(item.c_str() + eq + 1);
  }
  g.name = env("FAKE_NVML_NAME");
  g.procs.clear();
  for (const auto& item : split(env("FAKE_NVML_PROCS"), ',')) {
    auto f = split(item, ':');
    if (f.size() != 3) continue;
    unsigned long long mem = f[2] == "-" ? ~0ULL : std::strtoull(f[2].c_str(), nullptr, 10);
    g.procs.push_back(
        {static_cast<unsigned>(std::stoul(f[0])), static_cast<unsigned>(std::stoul(f[1])), mem});
  }
}

// The failures FAKE_NVML_FAIL_FILE holds now (none when it is unset or absent).
std::map<std::string, nvmlReturn_t> file_failures() {
  std::map<std::string, nvmlReturn_t> out;
  std::string path = env("FAKE_NVML_FAIL_FILE");
  if (path.empty()) return out;
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  for (const auto& item : split(text, ',')) {
    auto eq = item.find('=');
    if (eq != std::string::npos) out[item.substr(0, eq)] = std::atoi(item.c_str() + eq + 1);
  }
  return out;
}

nvmlReturn_t find_failure(const std::map<std::string, nvmlReturn_t>& fail, const char* call,
                          const FakeDevice* dev) {
  if (dev) {
    auto it = fail.find(std::string(call) + ":" + std::to_string(dev->index));
    if (it != fail.end()) return it->second;
  }
  auto it = fail.find(call);
  return it == fail.end() ? kSuccess : it->second;
}

// The configured failure for `call` on `dev`, or success.
nvmlReturn_t failure(const char* call, const FakeDevice* dev) {
  if (g.live <= 0) return kUninitialized;
  if (nvmlReturn_t rc = find_failure(g.fail, call, dev)) return rc;
  return find_failure(file_failures(), call, dev);
}

void mark_init_and_wait() {
  std::string mark = env("FAKE_NVML_INIT_MARK");
  if (!mark.empty()) std::ofstream(mark) << "init\n";
  std::string delay = env("FAKE_NVML_INIT_DELAY_MS");
  if (!delay.empty())
    std::this_thread::sleep_for(std::chrono::milliseconds(std::atoi(delay.c_str())));
}

nvmlReturn_t init() {
  mark_init_and_wait();
  std::string rc = env("FAKE_NVML_INIT_RC");
  if (!rc.empty() && std::atoi(rc.c_str()) != 0) return std::atoi(rc.c_str());
  if (nvmlReturn_t file_rc = find_failure(file_failures(), "init", nullptr)) return file_rc;
  if (g.live++ == 0) load_config();
  ++g.inits;
  return kSuccess;
}

nvmlReturn_t count(unsigned* n) {
  if (nvmlReturn_t rc = failure("count", nullptr)) return rc;
  *n = g.gpus;
  return kSuccess;
}

nvmlReturn_t handle(unsigned index, nvmlDevice_t* dev) {
  if (index >= g.gpus) return kInvalidArgument;
  if (nvmlReturn_t rc = failure("handle", &g.devices[index])) return rc;
  *dev = &g.devices[index];
  return kSuccess;
}

nvmlReturn_t copy_string(const char* call, nvmlDevice_t dev, const std::string& s, char* out,
                         unsigned len) {
  if (nvmlReturn_t rc = failure(call, dev)) return rc;
  if (s.size() + 1 > len) return kInsufficientSize;
  std::memcpy(out, s.c_str(), s.size() + 1);
  return kSuccess;
}

unsigned long long used_bytes(nvmlDevice_t dev) {
  return (dev->index + 1ULL) * kGiB;
}

template <typename Info>
nvmlReturn_t processes(nvmlDevice_t dev, unsigned* n, Info* out) {
  if (nvmlReturn_t rc = failure("processes", dev)) return rc;
  std::vector<Info> mine;
  for (const Proc& p : g.procs) {
    if (p.gpu != dev->index) continue;
    Info info{};
    info.pid = p.pid;
    info.usedGpuMemory = p.mem;
    mine.push_back(info);
  }
  unsigned capacity = *n;
  *n = static_cast<unsigned>(mine.size());
  if (mine.size() > capacity) return kInsufficientSize;
  for (size_t i = 0; i < mine.size(); ++i) out[i] = mine[i];
  return kSuccess;
}

}  // namespace

#define FAKE_EXPORT extern "C" __attribute__((visibility("default")))

// Test hooks: live init count and total inits, read by tests through their own dlopen handle.
FAKE_EXPORT int fake_nvml_live() {
  return g.live;
}
FAKE_EXPORT int fake_nvml_inits() {
  return g.inits;
}

FAKE_EXPORT nvmlReturn_t nvmlInit() {
  return init();
}
FAKE_EXPORT nvmlReturn_t nvmlShutdown() {
  if (g.live <= 0) return kUninitialized;
  --g.live;
  return kSuccess;
}
FAKE_EXPORT const char* nvmlErrorString(nvmlReturn_t rc) {
  switch (rc) {
    case 0:
      return "Success";
    case 3:
      return "Not Supported";
    case 9:
      return "Driver Not Loaded";
    case 15:
      return "GPU is lost";
    default:
      return "Unknown Error";
  }
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount(unsigned* n) {
  return count(n);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex(unsigned i, nvmlDevice_t* d) {
  return handle(i, d);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetName(nvmlDevice_t dev, char* out, unsigned len) {
  std::string name = g.name.empty() ? "Fake GPU " + std::to_string(dev->index) : g.name;
  return copy_string("name", dev, name, out, len);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUUID(nvmlDevice_t dev, char* out, unsigned len) {
  return copy_string("uuid", dev, "GPU-fake-" + std::to_string(dev->index), out, len);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetUtilizationRates(nvmlDevice_t dev, nvmlUtilization_t* u) {
  if (nvmlReturn_t rc = failure("util", dev)) return rc;
  *u = {10 * dev->index + 5, dev->index + 3};
  return kSuccess;
}
// The legacy call counts reserved memory as used; `_v2` does not (so tests can tell them apart).
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo(nvmlDevice_t dev, nvmlMemory_t* m) {
  if (nvmlReturn_t rc = failure("memory", dev)) return rc;
  unsigned long long used = used_bytes(dev) + kGiB / 2;
  *m = {80 * kGiB, 80 * kGiB - used, used};
  return kSuccess;
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetTemperature(nvmlDevice_t dev, int sensor, unsigned* t) {
  if (nvmlReturn_t rc = failure("temperature", dev)) return rc;
  if (sensor != 0) return kInvalidArgument;
  *t = 40 + dev->index;
  return kSuccess;
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPowerUsage(nvmlDevice_t dev, unsigned* mw) {
  if (nvmlReturn_t rc = failure("power", dev)) return rc;
  *mw = 100000 + 1500 * dev->index;
  return kSuccess;
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t dev, unsigned* n,
                                                              nvmlProcessInfo_v1_t* out) {
  return processes(dev, n, out);
}

#ifndef FAKE_NVML_LEGACY_ONLY
FAKE_EXPORT nvmlReturn_t nvmlInit_v2() {
  return init();
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetCount_v2(unsigned* n) {
  return count(n);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetHandleByIndex_v2(unsigned i, nvmlDevice_t* d) {
  return handle(i, d);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t dev, nvmlMemory_v2_t* m) {
  if (nvmlReturn_t rc = failure("memory_v2", dev)) return rc;
  constexpr nvmlReturn_t kArgumentVersionMismatch = 25;
  if (m->version != (sizeof(nvmlMemory_v2_t) | (2u << 24))) return kArgumentVersionMismatch;
  unsigned long long used = used_bytes(dev), reserved = kGiB / 2;
  *m = {m->version, 80 * kGiB, reserved, 80 * kGiB - used - reserved, used};
  return kSuccess;
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetPowerManagementLimit(nvmlDevice_t dev, unsigned* mw) {
  if (nvmlReturn_t rc = failure("power_limit", dev)) return rc;
  *mw = 300000;
  return kSuccess;
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v2(nvmlDevice_t dev, unsigned* n,
                                                                 nvmlProcessInfo_v2_t* out) {
  return processes(dev, n, out);
}
FAKE_EXPORT nvmlReturn_t nvmlDeviceGetComputeRunningProcesses_v3(nvmlDevice_t dev, unsigned* n,
                                                                 nvmlProcessInfo_v2_t* out) {
  return processes(dev, n, out);
}
#endif
