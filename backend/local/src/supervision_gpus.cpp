// A run's GPUs by UUID, failing closed: while NVML cannot name every GPU the run holds, the task
// waits (the reason stored for `ls` and the task view) rather than starting unconfined.
#include <signal.h>

#include <algorithm>

#include <fmt/format.h>

#include "gpu_id_list.hpp"
#include "supervision.hpp"

namespace trainyard {
namespace {

constexpr std::chrono::seconds kNvmlRetry{2};

// The UUID of every GPU in `ids`, or why one cannot be named.
Result<std::map<int, std::string>> map_gpus(const EngineConfig& config,
                                            const std::vector<int>& ids) {
  std::map<int, std::string> out;
  if (ids.empty()) return out;
  if (!config.gpu_probe) return make_error(ErrorKind::NotFound, "no GPU probe");
  auto gpus = config.gpu_probe();
  if (!gpus) return gpus.error();
  for (int idx : ids) {
    auto it =
        std::find_if(gpus->begin(), gpus->end(), [&](const GpuSlot& g) { return g.index == idx; });
    if (it == gpus->end())
      return make_error(ErrorKind::NotFound,
                        fmt::format("NVML lists no GPU {} ({} found)", idx, gpus->size()));
    if (it->uuid.empty())
      return make_error(ErrorKind::Io, fmt::format("NVML gives no UUID for GPU {}", idx));
    out[idx] = it->uuid;
  }
  return out;
}

}  // namespace

std::optional<AttemptOutcome> Supervision::await_gpus() {
  const auto ids = parse_gpu_ids(run_.gpu_ids);
  for (bool told = false;;) {
    auto mapped = map_gpus(config_, ids);
    if (mapped) {
      gpu_uuids_ = std::move(*mapped);
      if (told) log("NVML names the task's GPUs again");
      return std::nullopt;
    }
    if (!told) {
      auto reason =
          fmt::format("waiting for NVML to name GPU {}: {}", run_.gpu_ids, mapped.error().message);
      log(reason);
      if (auto r = set_waiting_reason(reason); !r) log(r.error().message);
      told = true;
    }
    int sig = wait_signal(kNvmlRetry);
    if (sig == SIGTERM || sig == SIGINT) {
      log("stop requested while waiting for NVML: the task was not started");
      AttemptOutcome out;
      out.stopped = true;
      return out;
    }
    if (sig == SIGCHLD) reap_any_children();
  }
}

Result<void> Supervision::set_waiting_reason(const std::string& reason) {
  return store_.write([&]() -> Result<void> {
    TY_TRY(keep_stored_stop(run_));
    run_.waiting_reason = reason;
    return store_.upsert_local_run(run_);
  });
}

std::vector<std::string> Supervision::uuids_of(const std::vector<int>& ids) const {
  std::vector<std::string> out;
  for (int idx : ids) out.push_back(gpu_uuids_.at(idx));
  return out;
}

}  // namespace trainyard
