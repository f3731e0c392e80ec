// Telling our runs' GPU processes from everybody else's.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "local/gpu.hpp"

namespace trainyard {

/// Who a process is, as /proc tells it.
struct PidIdentity {
  int64_t pgrp = 0;     ///< field 5 of /proc/<pid>/stat
  int64_t session = 0;  ///< field 6 of /proc/<pid>/stat
  uint32_t uid = 0;     ///< owner of /proc/<pid>
};

/// Reads /proc/<pid>/stat and the owner of /proc/<pid>; nullopt when the process is gone or
/// not visible (NVML reports host pids, so inside a container most of them are not).
std::optional<PidIdentity> read_pid_identity(int64_t pid,
                                             const std::filesystem::path& proc_root = "/proc");

/// Looks a pid up; tests pass a fake, production read_pid_identity.
using PidLookup = std::function<std::optional<PidIdentity>(int64_t pid)>;

/// The local run a process belongs to.
struct GpuRunRef {
  std::string job;
  std::string task;
  bool operator==(const GpuRunRef&) const = default;
};

/// One GPU process with its owner resolved.
struct LabeledGpuProcess {
  int gpu_index = 0;
  std::string gpu_uuid;
  GpuProcess process;
  std::optional<GpuRunRef> run;  ///< set when the process is one of our runs (or their children)
  std::optional<uint32_t> uid;   ///< owner; unknown when /proc could not be read
  /// True when the process is not ours.
  bool foreign() const { return !run.has_value(); }
};

/// Labels every process of every sample. `runs_by_pgid` maps each run's process group id
/// (= its leader's pid, as runs start in their own session) to the run; a process belongs to
/// a run when its pid, process group or session equals that pgid, which catches DataLoader
/// workers and other children. An empty `lookup` reads the real /proc.
std::vector<LabeledGpuProcess> label_gpu_processes(const std::vector<GpuSample>& samples,
                                                   const std::map<int64_t, GpuRunRef>& runs_by_pgid,
                                                   const PidLookup& lookup = {});

/// A process that makes a GPU busy for the scheduler.
struct ForeignGpuUse {
  int gpu_index = 0;
  std::string gpu_uuid;
  int64_t pid = 0;
  std::optional<uint64_t> used_memory;  ///< unknown counts as holding memory
  std::optional<uint32_t> uid;          ///< unknown when /proc could not be read
  bool other_user = true;               ///< false: the current user's own non-trainyard process
};

/// The processes that make GPUs unavailable to our scheduler: any process that is not one of
/// our runs (matched as in label_gpu_processes) and holds memory (or may: unknown counts).
/// Another user's process obviously blocks the GPU; the current user's own processes outside
/// trainyard (a notebook, a stray `python train.py`) block it too, since two jobs on one GPU
/// run out of memory just the same; `other_user` tells the two apart for the message.
/// GPUs whose process list is unknown are not reported: an unsupported query must not block a
/// GPU forever.
std::vector<ForeignGpuUse> busy_by_foreign(const std::vector<GpuSample>& samples,
                                           const std::set<int64_t>& our_pgids, uint32_t current_uid,
                                           const PidLookup& lookup = {});

/// The UUIDs of the GPUs named in `uses`.
std::set<std::string> busy_gpu_uuids(const std::vector<ForeignGpuUse>& uses);

}  // namespace trainyard
