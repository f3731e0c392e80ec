// Batch AI `job.json` import (the retired Microsoft.BatchAI service, API versions
// 2017-09-01-preview, 2018-03-01 and 2018-05-01: `workspaces/experiments/jobs`), with or without
// the ARM `properties` wrapper, mapped onto one Batch job and one task (a multi-instance task when
// nodeCount > 1).
//
// Assumptions, from the Batch AI REST schema as it was documented (the service is gone):
//  - The file holds no job name (`az batchai job create -n` gave it): the job id is
//    BatchAiOptions::job_id, else the file's stem made into a valid id. The task id is `main`.
//  - `$AZ_BATCHAI_MOUNT_ROOT`, `$AZ_BATCHAI_INPUT_<ID>`, `$AZ_BATCHAI_OUTPUT_<ID>` and
//    `$AZ_BATCHAI_JOB_TEMP` (also `${…}`) are replaced in command lines, paths and
//    environment values, and also set as job environment variables, as Batch AI did.
//    Output directories are `<pathPrefix>/<jobId>/outputs/<pathSuffix>` (Batch AI put
//    subscription, workspace and a UUID in between), or `<pathPrefix>/<pathSuffix>` with the
//    2017 `createNew: false`. The job temp directory is `$AZ_BATCH_NODE_SHARED_DIR/<jobId>/temp`.
//  - Batch AI ran command lines through a shell; so do the mapped tasks (`/bin/bash -c '…'`),
//    which create the output and temp directories first (the coordination command does it on
//    every node of a multi-instance task).
//  - `cntkSettings` with `pythonScriptFilePath` and no `languageType` (as Batch AI's own CNTK
//    Python recipes wrote it) is a Python job; without a script it is BrainScript.
//  - Multi-process toolkits start one process per rank with Open MPI (`mpirun --host
//    $AZ_BATCH_HOST_LIST --map-by node`), rank r on node r mod nodeCount. TensorFlow ranks
//    0..ps-1 are parameter servers and the rest workers, on port 2222 + rank;
//    `AZ_BATCHAI_PS_HOSTS`, `AZ_BATCHAI_WORKER_HOSTS` and `AZ_BATCHAI_TASK_INDEX` are set per rank.
//    PyTorch with `communicationBackend` gets `AZ_BATCHAI_PYTORCH_BACKEND`,
//    `AZ_BATCHAI_PYTORCH_INIT_METHOD` (tcp://$AZ_BATCH_MASTER_NODE), `AZ_BATCHAI_TASK_INDEX` and
//    `AZ_BATCHAI_WORLD_SIZE`.
//  - `secrets` values go into the task's environment marked secret (names in
//    JobSpec::secret_names); Key Vault references cannot be resolved here and are unmapped.
//  - Unmapped, with their place: `cluster`, `mountVolumes`, `schedulingPriority`,
//    `containerSettings.shmSize` and registry credentials, output `type`, the ARM wrapper's
//    fields, and anything unknown. `stdOutErrPathPrefix` is unmapped too (stdout and stderr
//    stay in the task directory) but sets `AZ_BATCHAI_STDOUTERR_DIR`.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "spec/spec_model.hpp"

namespace trainyard::spec {

/// Choices the caller makes for the file (`trainyard submit` flags).
struct BatchAiOptions {
  std::optional<std::string> job_id;   ///< `--job-id`; default: the file's stem
  std::optional<std::string> pool_id;  ///< `--pool`: poolInfo.poolId
  /// `--mount-root`: the value of `$AZ_BATCHAI_MOUNT_ROOT` (Batch AI's own default).
  std::string mount_root = "/mnt/batch/tasks/shared/LS_root/mounts";
};

/// Parses a Batch AI job.json `text`; `file` is the name used in messages and places.
Result<JobSpec> parse_batch_ai_json(std::string_view file, std::string_view text,
                                    const BatchAiOptions& options = {});

/// Reads and parses a Batch AI job.json file.
Result<JobSpec> load_batch_ai_json(const std::filesystem::path& path,
                                   const BatchAiOptions& options = {});

/// True when `text` looks like a Batch AI job (a toolkit setting or `stdOutErrPathPrefix`,
/// possibly under `properties`), for choosing a parser by content.
bool looks_like_batch_ai(std::string_view text);

}  // namespace trainyard::spec
