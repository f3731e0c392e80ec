// Internal: a parsed job spec as local-engine submissions.
#pragma once

#include <string>
#include <vector>

#include "core/entities.hpp"
#include "local/engine.hpp"
#include "spec/spec_model.hpp"

namespace trainyard {

/// The job record a spec creates.
Job local_job(const spec::JobSpec& spec);

/// One submission per task: job environment under the task's own, dependencies (ranges
/// expanded), limits and slots. Secrets travel only in the run's private environment file,
/// never in the stored task. Fails for what the local engine cannot run as written
/// (containers with no docker or podman).
Result<std::vector<SubmitRequest>> local_requests(const spec::JobSpec& spec,
                                                  const std::string& workdir,
                                                  const std::vector<std::string>& environment);

/// Warnings for what runs locally but differs from Batch (resource files not downloaded, …).
std::vector<std::string> local_caveats(const spec::JobSpec& spec);

}  // namespace trainyard
