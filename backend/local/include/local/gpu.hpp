// GPU telemetry types and the source interface the monitor polls.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard {

/// A compute process that NVML lists on one GPU.
struct GpuProcess {
  int64_t pid = 0;                      ///< host pid as the driver reports it
  std::optional<uint64_t> used_memory;  ///< bytes; unknown when the driver withholds it
};

/// One reading of one GPU. Every field the driver could not give is left unknown.
struct GpuSample {
  int index = 0;                             ///< NVML index (not remapped by CUDA_VISIBLE_DEVICES)
  std::string uuid;                          ///< `GPU-…`; what CUDA_VISIBLE_DEVICES pins to
  std::string name;                          ///< product name, e.g. `NVIDIA H100 80GB HBM3`
  std::optional<unsigned> util_percent;      ///< SM busy, % of the last sample period
  std::optional<unsigned> mem_util_percent;  ///< memory controller busy, %
  std::optional<unsigned> temperature_c;     ///< GPU core temperature
  std::optional<uint64_t> mem_used;          ///< bytes of device memory in use
  std::optional<uint64_t> mem_total;         ///< bytes of device memory
  std::optional<double> power_w;             ///< board power draw, watts
  std::optional<double> power_limit_w;       ///< power management limit, watts
  std::vector<GpuProcess> processes;         ///< compute processes on this GPU
  bool processes_known = false;  ///< false when the driver could not list processes (then empty)
  std::string
      error;       ///< why the GPU could not be read at all (lost, reset needed); empty when fine
  Timestamp at{};  ///< when the reading was taken
};

/// Where GPU readings come from (NVML in production, fakes in tests).
class GpuSource {
 public:
  virtual ~GpuSource() = default;
  /// Reads every GPU once; fails only when no GPU can be read at all.
  virtual Result<std::vector<GpuSample>> sample() = 0;
};

}  // namespace trainyard
