// Internal: what `submit --dry-run` warns will fail when the spec is submitted for real.
#pragma once

#include <string>
#include <vector>

#include "azure/batch_client.hpp"
#include "spec/spec_model.hpp"
#include "spec_to_local.hpp"

namespace trainyard {

/// For the local account: input directories (Batch AI `inputDirectories`) that do not exist,
/// tasks that run `mpirun` on this machine with none on PATH, and container tasks with neither
/// docker nor podman answering. One line each, naming the job or JOB/TASK.
std::vector<std::string> local_warnings(const spec::JobSpec& spec, const ContainerChoice& c);

/// For a Batch account: the job's pool when the account has no such pool (one GET).
std::vector<std::string> batch_warnings(azure::BatchClient& client, const std::string& account,
                                        const spec::JobSpec& spec);

/// True when `name` is an executable file in a directory of $PATH.
bool on_path(const std::string& name);

}  // namespace trainyard
