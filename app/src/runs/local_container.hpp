// Internal: running a task's containerSettings on this machine with docker or podman.
#pragma once

#include <string>
#include <vector>

#include "spec/spec_model.hpp"

namespace trainyard {

/// `docker` or `podman`, whichever answers `info` first; empty when neither does.
std::string local_container_runtime();

/// The host command line that runs `command` inside the task's image as Batch does: the task's
/// working, task and node shared directories (the last holds Batch AI's job temp and default
/// mount root) mounted at the same paths, the task's environment (`names`, plus
/// the AZ_BATCH_* and TRAINYARD_* variables the engine sets) passed through, the run's GPUs given
/// to the container, and the spec's containerRunOptions added.
std::string container_command_line(const std::string& runtime, const spec::ContainerSettings& c,
                                   const std::string& command,
                                   const std::vector<std::string>& names);

}  // namespace trainyard
