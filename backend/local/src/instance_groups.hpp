// Internal: the process groups of a multi-instance run's instances, as stored in
// LocalRun::instance_groups ("pgid:start_ticks,…"), and ending them.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <string>
#include <vector>

#include "store/store.hpp"

namespace trainyard {

/// One instance's coordination command: its group and the leader's start time.
struct InstanceGroup {
  pid_t pgid = 0;
  int64_t start_ticks = 0;
};

/// "12:345,13:346" from the groups.
std::string format_instance_groups(const std::vector<InstanceGroup>& groups);

/// The groups of "12:345,13:346"; malformed parts are skipped.
std::vector<InstanceGroup> parse_instance_groups(const std::string& text);

/// True when `g` is still the run's: its leader alive with the recorded start time or, the leader
/// gone, a member carrying the run's TRAINYARD_RUN_DIR (a reused group id carries neither).
bool group_is_runs(const InstanceGroup& g, const std::string& run_dir);

/// SIGTERM, then SIGKILL after `grace`, to every group still alive and still the run's (see
/// group_is_runs); `reap` collects children.
void terminate_instance_groups(const std::vector<InstanceGroup>& groups, const std::string& run_dir,
                               std::chrono::milliseconds grace, void (*reap)() = nullptr);

/// For a run whose supervisor is gone: ends what is left of its task's and its instances'
/// process groups. It waits for them, so it is never called inside a write transaction.
void end_orphaned_groups(const LocalRun& run);

/// For a run whose supervisor is gone: records its unfinished subtasks as ended for `reason`.
Result<void> record_orphaned_subtasks(Store& store, const LocalRun& run, Timestamp now,
                                      const std::string& reason);

}  // namespace trainyard
