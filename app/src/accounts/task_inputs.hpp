// `--upload DIR` on `run --account A` and `submit --account A`: the folder goes to a storage
// account, content-addressed, and each task gets resourceFiles with read SAS URLs for its files
// and, unless it names its own, outputFiles sending `outputs/` and its stdout and stderr to the
// job's Batch File Conventions container.
#pragma once

#include <optional>
#include <string>

#include <nlohmann/json.hpp>

#include "app/settings.hpp"
#include "azure/accounts.hpp"
#include "core/result.hpp"
#include "core/time.hpp"
#include "storage_lookup.hpp"

namespace CLI {
class App;
}

namespace trainyard {

/// The container inputs are kept in, each file as `sha256/<hex>`.
inline constexpr const char* kInputsContainer = "trainyard-inputs";
/// The most files a folder may hold: every task carries one resourceFile per file.
inline constexpr size_t kMaxInputFiles = 1000;

/// The storage account of `--upload`: `--storage S`, else the Batch account's `autoStorage`,
/// else the environment's (AZURE_STORAGE_*); a Usage error saying how to name one otherwise.
Result<azure::StorageAccountConfig> upload_storage(const Settings& settings,
                                                   const azure::AccountConfig& batch,
                                                   const std::string& storage_name);

/// What the tasks of one job get from `--upload DIR`.
struct TaskInputs {
  std::string storage;                                      ///< the storage account's name
  nlohmann::json resource_files = nlohmann::json::array();  ///< one per file, a read SAS each
  std::string outputs_url;  ///< the job's conventions container, with a write SAS
  size_t files = 0, sent = 0;
  uint64_t bytes = 0, bytes_sent = 0;
};

/// Sends the files of `dir` that the container lacks and signs the URLs for job `job`: a read
/// SAS per file, a write SAS for the job's conventions container (created when missing), each
/// valid for `lifetime` (at most azure::kMaxSasLifetime). Refused (Usage) before anything is
/// sent: a folder with no files or over kMaxInputFiles, an account without a key to sign with.
Result<TaskInputs> upload_task_inputs(OpenStorage& storage, const std::string& dir,
                                      const std::string& job, Duration lifetime,
                                      const Clock& clock);

/// Adds the inputs to a task body: its resourceFiles after any it has, and unless it has
/// outputFiles, ones sending `outputs/**` to `<task>/$TaskOutput/` and its stdout.txt and
/// stderr.txt to `<task>/$TaskLog/` in the job's container when the task completes.
void attach_task_inputs(nlohmann::json& task, const TaskInputs& inputs);

/// `--upload DIR` and `--storage S` as given.
struct UploadFlags {
  std::string dir;
  std::string storage;
};

/// Adds `--upload DIR` and `--storage S` to `run` or `submit`.
void add_upload_options(CLI::App* cmd, UploadFlags& flags);

/// How long the URLs handed to tasks stay valid: a day past the task's wall-clock limit (time to
/// wait in the queue), or azure::kMaxSasLifetime without one.
Duration upload_lifetime(std::optional<Duration> max_wall);

/// upload_storage, open_storage and upload_task_inputs in turn: the inputs of job `job` on the
/// Batch account `batch`.
Result<TaskInputs> prepare_task_inputs(const Settings& settings, const azure::AccountConfig& batch,
                                       const UploadFlags& flags, const std::string& job,
                                       Duration lifetime, const Clock& clock);

/// `inputs: N file(s), M sent (B bytes), K already in storage S`.
std::string inputs_line(const TaskInputs& inputs);

}  // namespace trainyard
