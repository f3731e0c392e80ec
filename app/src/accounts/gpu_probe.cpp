#include "gpu_probe.hpp"

#include <unistd.h>

#include <set>

#include "local/gpu_processes.hpp"
#include "local/nvml_source.hpp"

namespace trainyard {
namespace {

std::set<int64_t> our_pgids(Store& store) {
  std::set<int64_t> out;
  if (auto runs = store.local_runs())
    for (const auto& r : *runs)
      if (r.pgid > 0 && r.supervisor_pid > 0) out.insert(r.pgid);
  return out;
}

}  // namespace

GpuProbe make_gpu_probe(Store& store) {
  // NVML is opened on first use and kept for the life of the process. Without the library or a
  // driver this is a CPU node; an NVML that fails to start is an error, tried again next time.
  auto source = std::make_shared<std::unique_ptr<GpuSource>>();
  auto absent = std::make_shared<bool>(false);
  Store* s = &store;
  return [source, absent, s]() -> Result<std::vector<GpuSlot>> {
    if (!*source && !*absent) {
      auto opened = open_nvml_gpu_source(nvml_library_from_env());
      if (opened)
        *source = std::move(*opened);
      else if (opened.error().kind == ErrorKind::NotFound)
        *absent = true;
      else
        return opened.error();
    }
    if (!*source) return std::vector<GpuSlot>{};
    auto samples = (*source)->sample();
    if (!samples) return samples.error();
    auto busy = busy_gpu_uuids(busy_by_foreign(*samples, our_pgids(*s), getuid()));
    std::vector<GpuSlot> out;
    for (const auto& g : *samples) out.push_back(GpuSlot{g.index, g.uuid, busy.count(g.uuid) > 0});
    return out;
  };
}

}  // namespace trainyard
