// Internal: the local engine's view of this machine's GPUs, from NVML.
#pragma once

#include "local/engine.hpp"
#include "store/store.hpp"

namespace trainyard {

/// A probe listing GPUs with `foreign_busy` set where a process that is not one of our runs holds
/// memory; empty when NVML is missing. `store` must outlive the probe.
GpuProbe make_gpu_probe(Store& store);

}  // namespace trainyard
