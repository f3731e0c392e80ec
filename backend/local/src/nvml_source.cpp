#include "local/nvml_source.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <bit>
#include <cstdlib>
#include <initializer_list>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/sanitizer.hpp"
#include "nvml_abi.hpp"

namespace trainyard {

// Entry points resolved from one loaded NVML; optional ones stay null when the driver lacks them.
struct NvmlApi {
  void* lib = nullptr;
  std::string library;
  std::vector<std::string> resolved;  // symbol names chosen, for describe()
  bool initialized = false;

  nvml::InitFn init = nullptr;
  nvml::ShutdownFn shutdown = nullptr;
  nvml::ErrorStringFn error_string = nullptr;
  nvml::GetCountFn get_count = nullptr;
  nvml::GetHandleFn get_handle = nullptr;
  nvml::GetStringFn get_name = nullptr;
  nvml::GetStringFn get_uuid = nullptr;
  nvml::GetUtilizationFn get_utilization = nullptr;
  nvml::GetMemoryV2Fn get_memory_v2 = nullptr;
  nvml::GetMemoryFn get_memory = nullptr;
  nvml::GetTemperatureFn get_temperature = nullptr;
  nvml::GetUintFn get_power = nullptr;
  nvml::GetUintFn get_power_limit = nullptr;
  nvml::GetProcessesV2Fn get_processes_v2 = nullptr;  // `_v3` or `_v2`: same struct
  nvml::GetProcessesV1Fn get_processes_v1 = nullptr;  // plain: the legacy 16-byte struct

  ~NvmlApi() {
    if (initialized && shutdown) shutdown();
    if (lib) dlclose(lib);
  }
};

namespace {

// Returns the first of `names` the library exports, newest first, and records which one.
template <typename Fn>
Fn resolve(NvmlApi& api, std::initializer_list<const char*> names) {
  for (const char* name : names) {
    if (void* p = dlsym(api.lib, name)) {
      api.resolved.emplace_back(name);
      return std::bit_cast<Fn>(p);
    }
  }
  return nullptr;
}

std::string error_text(const NvmlApi& api, nvml::Return rc) {
  const char* text = api.error_string ? api.error_string(rc) : nullptr;
  return text ? fmt::format("{} ({})", sanitize_text(text), rc) : fmt::format("NVML error {}", rc);
}

Error unavailable(std::string why) {
  return make_error(ErrorKind::NotFound, "NVML not available: " + std::move(why));
}

void resolve_required(NvmlApi& api) {
  api.init = resolve<nvml::InitFn>(api, {"nvmlInit_v2", "nvmlInit"});
  api.shutdown = resolve<nvml::ShutdownFn>(api, {"nvmlShutdown"});
  api.get_count = resolve<nvml::GetCountFn>(api, {"nvmlDeviceGetCount_v2", "nvmlDeviceGetCount"});
  api.get_handle = resolve<nvml::GetHandleFn>(
      api, {"nvmlDeviceGetHandleByIndex_v2", "nvmlDeviceGetHandleByIndex"});
}

void resolve_optional(NvmlApi& api) {
  api.error_string = resolve<nvml::ErrorStringFn>(api, {"nvmlErrorString"});
  api.get_name = resolve<nvml::GetStringFn>(api, {"nvmlDeviceGetName"});
  api.get_uuid = resolve<nvml::GetStringFn>(api, {"nvmlDeviceGetUUID"});
  api.get_utilization = resolve<nvml::GetUtilizationFn>(api, {"nvmlDeviceGetUtilizationRates"});
  api.get_memory_v2 = resolve<nvml::GetMemoryV2Fn>(api, {"nvmlDeviceGetMemoryInfo_v2"});
  api.get_memory = resolve<nvml::GetMemoryFn>(api, {"nvmlDeviceGetMemoryInfo"});
  api.get_temperature = resolve<nvml::GetTemperatureFn>(api, {"nvmlDeviceGetTemperature"});
  api.get_power = resolve<nvml::GetUintFn>(api, {"nvmlDeviceGetPowerUsage"});
  api.get_power_limit = resolve<nvml::GetUintFn>(api, {"nvmlDeviceGetPowerManagementLimit"});
  // Probing newest-first avoids "undefined symbol …_v2" on 430/440 drivers and the R525
  // struct change that gave garbage pids to callers that guessed the layout.
  api.get_processes_v2 = resolve<nvml::GetProcessesV2Fn>(
      api, {"nvmlDeviceGetComputeRunningProcesses_v3", "nvmlDeviceGetComputeRunningProcesses_v2"});
  if (!api.get_processes_v2)
    api.get_processes_v1 =
        resolve<nvml::GetProcessesV1Fn>(api, {"nvmlDeviceGetComputeRunningProcesses"});
}

Result<std::unique_ptr<NvmlApi>> load_api(const std::string& library) {
  auto api = std::make_unique<NvmlApi>();
  api->library = library;
  // RTLD_LOCAL keeps NVML's symbols out of the global namespace of the process.
  api->lib = dlopen(library.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!api->lib) {
    const char* why = dlerror();
    return unavailable(why ? why : library + ": cannot be loaded");
  }
  resolve_required(*api);
  if (!api->init || !api->shutdown || !api->get_count || !api->get_handle)
    return unavailable(library + " lacks nvmlInit, nvmlShutdown or the device enumeration calls");
  resolve_optional(*api);
  return api;
}

// Driver strings enter the process here, so they pass the sanitizer here (architecture.md).
std::string read_string(nvml::GetStringFn fn, nvml::Device dev, unsigned size) {
  if (!fn) return {};
  std::string buf(size, '\0');
  if (fn(dev, buf.data(), size) != nvml::kSuccess) return {};
  buf.resize(std::min<size_t>(buf.find('\0'), size));
  return sanitize_text(buf);
}

void read_utilization(const NvmlApi& api, nvml::Device dev, GpuSample& s) {
  nvml::Utilization u{};
  if (!api.get_utilization || api.get_utilization(dev, &u) != nvml::kSuccess) return;
  s.util_percent = u.gpu;
  s.mem_util_percent = u.memory;
}

// `_v2` reports `used` without the driver's reserved memory (as nvidia-smi does since R510);
// some drivers export it but reject the struct version, so fall back to the legacy call.
void read_memory(const NvmlApi& api, nvml::Device dev, GpuSample& s) {
  if (api.get_memory_v2) {
    nvml::MemoryV2 m{};
    m.version = nvml::kMemoryV2Version;
    if (api.get_memory_v2(dev, &m) == nvml::kSuccess) {
      s.mem_used = m.used;
      s.mem_total = m.total;
      return;
    }
  }
  nvml::Memory m{};
  if (!api.get_memory || api.get_memory(dev, &m) != nvml::kSuccess) return;
  s.mem_used = m.used;
  s.mem_total = m.total;
}

std::optional<unsigned> read_temperature(const NvmlApi& api, nvml::Device dev) {
  unsigned t = 0;
  if (!api.get_temperature || api.get_temperature(dev, nvml::kTemperatureGpu, &t) != nvml::kSuccess)
    return std::nullopt;
  return t;
}

std::optional<double> read_watts(nvml::GetUintFn fn, nvml::Device dev) {
  unsigned milliwatts = 0;
  if (!fn || fn(dev, &milliwatts) != nvml::kSuccess) return std::nullopt;
  return milliwatts / 1000.0;
}

template <typename Info>
GpuProcess to_process(const Info& info) {
  GpuProcess p{static_cast<int64_t>(info.pid), std::nullopt};
  if (info.usedGpuMemory != nvml::kValueNotAvailable) p.used_memory = info.usedGpuMemory;
  return p;
}

// Calls a GetComputeRunningProcesses variant, growing the buffer when NVML says it is too
// small (processes can start between two calls, so the count it reports may be stale).
template <typename Info, typename Fn>
bool query_processes(Fn fn, nvml::Device dev, std::vector<GpuProcess>& out) {
  std::vector<Info> buf(32);
  for (int attempt = 0; attempt < 4; ++attempt) {
    auto n = static_cast<unsigned>(buf.size());
    nvml::Return rc = fn(dev, &n, buf.data());
    if (rc == nvml::kSuccess) {
      n = std::min(n, static_cast<unsigned>(buf.size()));
      for (unsigned i = 0; i < n; ++i) out.push_back(to_process(buf[i]));
      return true;
    }
    if (rc != nvml::kErrorInsufficientSize) return false;
    buf.resize(std::max<size_t>(n, buf.size()) * 2);
  }
  return false;
}

void read_processes(const NvmlApi& api, nvml::Device dev, GpuSample& s) {
  if (api.get_processes_v2)
    s.processes_known =
        query_processes<nvml::ProcessInfoV2>(api.get_processes_v2, dev, s.processes);
  else if (api.get_processes_v1)
    s.processes_known =
        query_processes<nvml::ProcessInfoV1>(api.get_processes_v1, dev, s.processes);
  if (!s.processes_known) s.processes.clear();
}

GpuSample read_device(const NvmlApi& api, unsigned index, Timestamp at) {
  GpuSample s;
  s.index = static_cast<int>(index);
  s.at = at;
  nvml::Device dev = nullptr;
  if (nvml::Return rc = api.get_handle(index, &dev); rc != nvml::kSuccess) {
    s.error = "nvmlDeviceGetHandleByIndex: " + error_text(api, rc);
    return s;
  }
  s.name = read_string(api.get_name, dev, nvml::kNameBufferSize);
  s.uuid = read_string(api.get_uuid, dev, nvml::kUuidBufferSize);
  read_utilization(api, dev, s);
  read_memory(api, dev, s);
  s.temperature_c = read_temperature(api, dev);
  s.power_w = read_watts(api.get_power, dev);
  s.power_limit_w = read_watts(api.get_power_limit, dev);
  read_processes(api, dev, s);
  return s;
}

}  // namespace

std::string nvml_library_from_env() {
  const char* env = std::getenv("TRAINYARD_NVML_LIB");
  return env && *env ? env : kNvmlLibrary;
}

NvmlGpuSource::NvmlGpuSource(std::unique_ptr<NvmlApi> api, const Clock* clock)
    : api_(std::move(api)), clock_(clock ? clock : &system_clock_) {}

NvmlGpuSource::~NvmlGpuSource() = default;

Result<std::unique_ptr<NvmlGpuSource>> NvmlGpuSource::open(const std::string& library,
                                                           const Clock* clock) {
  auto api = load_api(library);
  if (!api) return api.error();
  NvmlApi& a = **api;
  if (nvml::Return rc = a.init(); rc != nvml::kSuccess) {
    auto why = fmt::format("{}: {}", a.resolved.front(), error_text(a, rc));
    // No driver: a machine without NVIDIA GPUs that has the library. Anything else is a GPU
    // machine whose NVML fails, which GPU work must wait out rather than run unconfined.
    if (rc == nvml::kErrorDriverNotLoaded || rc == nvml::kErrorLibraryNotFound)
      return unavailable(std::move(why));
    return make_error(ErrorKind::Io, "NVML cannot be started: " + why);
  }
  a.initialized = true;
  return std::unique_ptr<NvmlGpuSource>(new NvmlGpuSource(std::move(*api), clock));
}

Result<std::vector<GpuSample>> NvmlGpuSource::sample() {
  unsigned count = 0;
  if (nvml::Return rc = api_->get_count(&count); rc != nvml::kSuccess)
    return make_error(ErrorKind::Io, "nvmlDeviceGetCount: " + error_text(*api_, rc));
  // One timestamp for every GPU keeps their chart columns aligned.
  Timestamp at = clock_->now();
  std::vector<GpuSample> out;
  out.reserve(count);
  for (unsigned i = 0; i < count; ++i) out.push_back(read_device(*api_, i, at));
  return out;
}

Result<std::unique_ptr<GpuSource>> open_nvml_gpu_source(const std::string& library,
                                                        const Clock* clock) {
  auto src = NvmlGpuSource::open(library, clock);
  if (!src) return src.error();
  return std::unique_ptr<GpuSource>(std::move(src).value());
}

std::string NvmlGpuSource::describe() const {
  return fmt::format("{}: {}", api_->library, fmt::join(api_->resolved, " "));
}

}  // namespace trainyard
