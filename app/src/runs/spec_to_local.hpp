// Internal: a parsed job spec as local-engine submissions.
#pragma once

#include <string>
#include <vector>

#include "core/entities.hpp"
#include "local/engine.hpp"
#include "spec/load.hpp"
#include "spec/spec_model.hpp"

namespace trainyard {

/// The load options of a local submission: `$AZ_BATCHAI_MOUNT_ROOT` under the data directory
/// (node_dirs), where Batch AI's /mnt/batch/tasks/… would land at the root of this machine.
spec::LoadOptions local_load_options(const std::string& data_dir);

/// The job record a spec creates.
Job local_job(const spec::JobSpec& spec);

/// How container tasks run here: through `runtime`, or (`--no-container`) on the host.
struct ContainerChoice {
  bool on_host = false;  ///< run each task's command on this machine, ignoring its image
  std::string runtime;   ///< docker or podman; empty: none answers
};

/// The choice for `specs`; the runtime is probed only when a task names an image and not
/// `on_host`.
ContainerChoice choose_containers(const std::vector<spec::JobSpec>& specs, bool on_host);

/// One submission per task: job environment under the task's own, dependencies (ranges
/// expanded), limits and slots. Secrets travel only in the run's private environment file,
/// never in the stored task. Fails for what the local engine cannot run as written
/// (containers with no docker or podman, unless they run on the host).
Result<std::vector<SubmitRequest>> local_requests(const spec::JobSpec& spec,
                                                  const std::string& workdir,
                                                  const std::vector<std::string>& environment,
                                                  const ContainerChoice& containers);

/// local_requests with the containers of `spec` run through docker or podman.
Result<std::vector<SubmitRequest>> local_requests(const spec::JobSpec& spec,
                                                  const std::string& workdir,
                                                  const std::vector<std::string>& environment);

/// Warnings for what runs locally but differs from Batch (resource files not downloaded, …).
std::vector<std::string> local_caveats(const spec::JobSpec& spec);

}  // namespace trainyard
