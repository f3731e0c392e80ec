// The common result of every job-spec parser (Batch JSON, Batch AI job.json, Shipyard jobs.yaml):
// a Batch job and its tasks in a form that serialises to the Batch REST wire shape
// (azure-batch-api.md §5). Fields trainyard does not model are kept as raw JSON text so that
// nothing a user wrote is dropped on the way to Azure.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/time.hpp"

namespace trainyard::spec {

/// A JSON value kept verbatim (compact text, e.g. `{"autoUser":{"scope":"task"}}`).
struct RawJson {
  std::string text;  ///< one complete JSON value
};

/// A wire field kept as raw JSON: `name` is its wire name, written in the order added.
using RawField = std::pair<std::string, RawJson>;

/// One `environmentSettings` entry.
struct EnvSetting {
  std::string name;   ///< variable name
  std::string value;  ///< its value; a secret's value must never be stored or printed
  bool secret =
      false;  ///< true for Batch AI `secrets`: keep out of storage, logs and dry-run output
};

/// `constraints` of a task (and, without retentionTime, of a job).
struct Constraints {
  std::optional<Duration> maxWallClockTime;  ///< ISO 8601 on the wire
  std::optional<int> maxTaskRetryCount;      ///< 0 none, -1 unlimited
  std::optional<Duration> retentionTime;     ///< tasks only
};

/// `dependsOn.taskIdRanges[]` entry (inclusive).
struct TaskIdRange {
  int64_t start = 0;  ///< first task id
  int64_t end = 0;    ///< last task id
};

/// `dependsOn`.
struct TaskDependencies {
  std::vector<std::string> taskIds;       ///< ids this task waits for
  std::vector<TaskIdRange> taskIdRanges;  ///< numeric id ranges this task waits for
};

/// `multiInstanceSettings`.
struct MultiInstanceSettings {
  std::optional<int> numberOfInstances;                ///< Batch default 1
  std::optional<std::string> coordinationCommandLine;  ///< runs on every instance
  std::vector<RawJson> commonResourceFiles;            ///< ResourceFile objects, verbatim
};

/// `containerSettings` of a task.
struct ContainerSettings {
  std::string imageName;                           ///< e.g. `pytorch/pytorch:latest`
  std::optional<std::string> containerRunOptions;  ///< extra `docker create` options
  std::optional<std::string> workingDirectory;     ///< taskWorkingDirectory | containerImageDefault
  std::vector<RawField> extra;  ///< registry, containerHostBatchBindMounts, … verbatim
};

/// How Shipyard generated a task id: prefix and zero-fill width (`task-`, 5 → `task-00000`).
struct GeneratedId {
  std::string prefix;
  int width = 0;
};

/// A Batch task (`TaskAddParameter` / `BatchTaskCreateOptions`).
struct SpecTask {
  std::string id;                               ///< ≤64 of letters, digits, `-`, `_`
  std::optional<std::string> displayName;       ///< free text
  std::string commandLine;                      ///< required
  std::vector<EnvSetting> environmentSettings;  ///< in file order
  std::optional<Constraints> constraints;       ///< omitted on the wire when absent
  std::optional<int> requiredSlots;             ///< ≥ 1; GPUs locally
  std::optional<TaskDependencies> dependsOn;    ///< needs job.usesTaskDependencies
  std::optional<MultiInstanceSettings> multiInstanceSettings;  ///< MPI-style gang task
  std::vector<RawJson> resourceFiles;                          ///< ResourceFile objects, verbatim
  std::vector<RawJson> outputFiles;                            ///< OutputFile objects, verbatim
  std::optional<ContainerSettings> containerSettings;          ///< run inside a container
  std::optional<RawJson> userIdentity;                         ///< verbatim
  std::optional<RawJson> exitConditions;                       ///< verbatim
  std::optional<RawJson> applicationPackageReferences;         ///< array, verbatim
  std::vector<RawField> extra;  ///< other valid Batch task fields (affinityInfo, …) verbatim
  /// Sweep parameter values that produced this task (name, text); trainyard-only, not on the wire.
  std::vector<std::pair<std::string, std::string>> parameters;
  /// Where the task was defined (`file:line:col`); trainyard-only, not on the wire.
  std::string origin;
  /// Set when Shipyard generated the id; trainyard-only: a resubmission numbers such a task
  /// on past the job's tasks.
  std::optional<GeneratedId> generated_id;
};

/// `jobPreparationTask` / `jobReleaseTask`.
struct JobAuxTask {
  std::optional<std::string> id;                       ///< Batch defaults it
  std::string commandLine;                             ///< required
  std::vector<EnvSetting> environmentSettings;         ///< in file order
  std::optional<ContainerSettings> containerSettings;  ///< run inside a container
  std::vector<RawJson> resourceFiles;                  ///< verbatim
  std::vector<RawField> extra;  ///< constraints, waitForSuccess, userIdentity, … verbatim
};

/// `poolInfo`.
struct PoolInfo {
  std::optional<std::string> poolId;             ///< existing pool
  std::optional<RawJson> autoPoolSpecification;  ///< verbatim
};

/// A Batch job (`JobAddParameter` / `BatchJobCreateOptions`).
struct SpecJob {
  std::string id;                                     ///< ≤64 of letters, digits, `-`, `_`
  std::optional<std::string> displayName;             ///< free text
  std::optional<int> priority;                        ///< -1000..1000
  PoolInfo poolInfo;                                  ///< where tasks run
  std::optional<Constraints> constraints;             ///< maxWallClockTime, maxTaskRetryCount
  std::vector<EnvSetting> commonEnvironmentSettings;  ///< inherited by every task
  std::optional<JobAuxTask> jobPreparationTask;       ///< runs once per node before tasks
  std::optional<JobAuxTask> jobReleaseTask;           ///< runs once per node at the end
  std::optional<std::string> onAllTasksComplete;      ///< wire name: noaction | terminatejob
  std::optional<std::string> onTaskFailure;  ///< wire name: noaction | performexitoptionsjobaction
  std::optional<bool> usesTaskDependencies;  ///< required true when tasks use dependsOn
  std::vector<std::pair<std::string, std::string>> metadata;  ///< name/value pairs
  std::vector<RawField> extra;  ///< jobManagerTask, networkConfiguration, … verbatim
};

/// Something in the input that has no Batch equivalent; reported, never dropped silently.
struct Unmapped {
  std::string place;  ///< `file:line:col /json/pointer`
  std::string what;   ///< what it is and why it was not mapped
};

/// A directory a job reads (Batch AI `inputDirectories`), as its tasks will see it.
struct InputDirectory {
  std::string id;     ///< names `$AZ_BATCHAI_INPUT_<ID>`
  std::string path;   ///< with the AZ_BATCHAI variables substituted
  std::string place;  ///< `file:line:col /json/pointer`
};

/// A parsed job spec: one job, its tasks, and what could not be mapped.
struct JobSpec {
  SpecJob job;                            ///< the job
  std::vector<SpecTask> tasks;            ///< in submission order
  std::vector<Unmapped> unmapped;         ///< in file order
  std::vector<std::string> secret_names;  ///< names of env entries marked secret
  std::vector<InputDirectory> inputs;     ///< trainyard-only: checked by `submit --dry-run`
};

/// How secrets are written by the wire serialisers.
enum class Secrets {
  Redact,  ///< secret entries keep their name and lose their value (dry-run, storage)
  Reveal,  ///< the real value (only for the request body sent to Batch)
};

/// `{"job": <job>, "tasks": [<task>…], "unmapped": [{"place","what"}…]}` in Batch wire names,
/// secrets redacted: what `submit --dry-run --json` prints.
std::string to_wire_json(const JobSpec& spec);
/// The job as a Batch job-add request body.
std::string job_to_wire_json(const SpecJob& job, Secrets secrets = Secrets::Redact);
/// One task as a Batch task-add request body.
std::string task_to_wire_json(const SpecTask& task, Secrets secrets = Secrets::Redact);

}  // namespace trainyard::spec
