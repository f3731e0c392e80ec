// GPU readings from NVML, loaded with dlopen at run time (no build dependency on the driver).
#pragma once

#include <memory>
#include <string>

#include "core/time.hpp"
#include "local/gpu.hpp"

namespace trainyard {

/// The versioned soname the driver installs; the bare `.so` only comes with dev packages.
inline constexpr const char* kNvmlLibrary = "libnvidia-ml.so.1";

/// `$TRAINYARD_NVML_LIB` when set and non-empty, else kNvmlLibrary.
std::string nvml_library_from_env();

struct NvmlApi;

/// GpuSource backed by NVML. Symbols are resolved newest-first (`_v3`→`_v2`→plain), so old
/// and new drivers both work; a missing optional symbol or a failing call leaves fields unknown.
class NvmlGpuSource final : public GpuSource {
 public:
  /// Loads `library` (a soname or a path) and initialises NVML. Fails with
  /// "NVML not available: <dlerror>" when the library is absent, or with NVML's own message
  /// when initialisation fails (driver not loaded, no permission). `clock` stamps samples and
  /// must outlive the source; nullptr means the system clock.
  static Result<std::unique_ptr<NvmlGpuSource>> open(const std::string& library = kNvmlLibrary,
                                                     const Clock* clock = nullptr);
  ~NvmlGpuSource() override;
  NvmlGpuSource(const NvmlGpuSource&) = delete;
  NvmlGpuSource& operator=(const NvmlGpuSource&) = delete;

  /// Reads every GPU; safe to call from one thread at a time (NVML itself is thread-safe).
  Result<std::vector<GpuSample>> sample() override;

  /// Which entry points were resolved, for diagnostics, e.g.
  /// `nvmlInit_v2 nvmlDeviceGetComputeRunningProcesses_v3 nvmlDeviceGetMemoryInfo_v2`.
  std::string describe() const;

 private:
  NvmlGpuSource(std::unique_ptr<NvmlApi> api, const Clock* clock);

  std::unique_ptr<NvmlApi> api_;
  SystemClock system_clock_;
  const Clock* clock_;
};

/// NvmlGpuSource::open as the interface GpuMonitor takes:
/// `GpuMonitor m(open_nvml_gpu_source(nvml_library_from_env()), {}, wake);`.
Result<std::unique_ptr<GpuSource>> open_nvml_gpu_source(const std::string& library = kNvmlLibrary,
                                                        const Clock* clock = nullptr);

}  // namespace trainyard
