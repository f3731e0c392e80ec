#include "task_inputs.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>
#include <vector>

#include <fmt/format.h>
#include <CLI/CLI.hpp>

#include "azure/blob_auth.hpp"
#include "azure/blob_transfer.hpp"
#include "azure/task_outputs.hpp"
#include "core/byte_size.hpp"
#include "storage_lookup.hpp"

namespace trainyard {

namespace fs = std::filesystem;

namespace {

// Clock skew between this machine and the storage service must not make a fresh SAS not valid
// yet.
constexpr auto kSasSlack = std::chrono::minutes(15);

struct InputFile {
  fs::path path;
  std::string relative;  ///< with `/`, as the task's filePath
  bool executable = false;
};

// The regular files below `dir` (symlinks to files followed, to folders not), by relative path.
Result<std::vector<InputFile>> input_files(const std::string& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    return make_error(ErrorKind::Usage, fmt::format("--upload {}: not a folder", dir));
  std::vector<InputFile> files;
  fs::recursive_directory_iterator it(dir, ec), end;
  for (; !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const auto perms = fs::status(it->path(), ec).permissions();
    files.push_back({it->path(), fs::relative(it->path(), dir, ec).generic_string(),
                     (perms & fs::perms::owner_exec) != fs::perms::none});
    if (files.size() > kMaxInputFiles)
      return make_error(ErrorKind::Usage,
                        fmt::format("--upload {}: more than {} files; send an archive of them "
                                    "and unpack it in the command",
                                    dir, kMaxInputFiles));
  }
  if (ec) return make_error(ErrorKind::Io, fmt::format("--upload {}: {}", dir, ec.message()));
  if (files.empty())
    return make_error(ErrorKind::Usage, fmt::format("--upload {}: the folder holds no files", dir));
  std::sort(files.begin(), files.end(),
            [](const auto& a, const auto& b) { return a.relative < b.relative; });
  return files;
}

// An account reached with an Entra token has no key to sign with: it lends a user delegation key
// for as long as the URLs must last, and that signs them.
Result<void> sign_without_key(OpenStorage& s, Timestamp now, Duration lifetime) {
  if (s.signer) return {};
  auto key = s.client->user_delegation_key(now - kSasSlack, now + lifetime);
  if (!key)
    return make_error(key.error().kind,
                      fmt::format("--upload: storage account {} is reached without an account key, "
                                  "and its user delegation key (to sign the URLs the tasks need) "
                                  "was refused: {}",
                                  s.name, key.error().message));
  s.signer = std::make_shared<const azure::SasSigner>(std::move(*key));
  return {};
}

// `url?sas` for a container (`blob` empty) or a blob.
Result<std::string> signed_url(const OpenStorage& s, const std::string& container,
                               const std::string& blob, azure::SasPermissions permissions,
                               Timestamp now, Duration lifetime) {
  azure::ServiceSasRequest req{s.account_name, s.client->endpoint(), container,     blob,
                               permissions,    now - kSasSlack,      now + lifetime};
  auto sas = s.signer->sign(req);
  if (!sas) return sas.error();
  return s.client->blob_url(container, blob) + "?" + *sas;
}

Result<void> send_file(OpenStorage& s, const InputFile& f, TaskInputs& out, Timestamp now,
                       Duration lifetime) {
  auto stored = azure::upload_addressed(*s.client, f.path.string(), kInputsContainer, "sha256/");
  if (!stored) return stored.error();
  auto url = signed_url(s, kInputsContainer, stored->blob, {.read = true}, now, lifetime);
  if (!url) return url.error();
  nlohmann::json file{{"httpUrl", *url}, {"filePath", f.relative}};
  // Batch's default mode (0770) would do for scripts too, but an input keeps the mode it had.
  file["fileMode"] = f.executable ? "0755" : "0644";
  out.resource_files.push_back(std::move(file));
  ++out.files;
  out.bytes += stored->size;
  if (stored->sent) {
    ++out.sent;
    out.bytes_sent += stored->size;
  }
  return {};
}

nlohmann::json output_file(const std::string& pattern, const std::string& url,
                           const std::string& path) {
  return {{"filePattern", pattern},
          {"destination", {{"container", {{"containerUrl", url}, {"path", path}}}}},
          {"uploadOptions", {{"uploadCondition", "taskCompletion"}}}};
}

}  // namespace

Result<azure::StorageAccountConfig> upload_storage(const Settings& settings,
                                                   const azure::AccountConfig& batch,
                                                   const std::string& storage_name) {
  const std::string& name = storage_name.empty() ? batch.auto_storage : storage_name;
  if (!name.empty()) return find_storage_account(settings, name);
  auto env = azure::storage_account_from_environment(azure::environment_map());
  if (env) return *env;
  return make_error(ErrorKind::Usage,
                    fmt::format("--upload needs a storage account: give --storage S, set "
                                "autoStorage on account {} in config.json, or set "
                                "AZURE_STORAGE_CONNECTION_STRING",
                                batch.name));
}

Result<TaskInputs> upload_task_inputs(OpenStorage& storage, const std::string& dir,
                                      const std::string& job, Duration lifetime,
                                      const Clock& clock) {
  auto files = input_files(dir);
  if (!files) return files.error();
  lifetime = std::min<Duration>(lifetime, azure::kMaxSasLifetime - kSasSlack);
  const Timestamp now = clock.now();
  if (auto ok = sign_without_key(storage, now, lifetime); !ok) return ok.error();
  if (auto made = storage.client->create_container(kInputsContainer); !made) return made.error();
  TaskInputs out;
  out.storage = storage.name;
  for (const auto& f : *files)
    if (auto ok = send_file(storage, f, out, now, lifetime); !ok) return ok.error();
  const std::string outputs = azure::job_output_container(job);
  if (auto made = storage.client->create_container(outputs); !made) return made.error();
  auto url = signed_url(storage, outputs, "", {.write = true}, now, lifetime);
  if (!url) return url.error();
  out.outputs_url = *url;
  return out;
}

void add_upload_options(CLI::App* cmd, UploadFlags& flags) {
  cmd->add_option("--upload", flags.dir,
                  "Batch: send this folder's files to storage (only what changed) and give each "
                  "task them in its working directory; outputs/ and the task's stdout and stderr "
                  "go to the job's container when it completes (see `trainyard outputs`)");
  cmd->add_option("--storage", flags.storage,
                  "Storage account for --upload (default: the account's autoStorage, else "
                  "AZURE_STORAGE_CONNECTION_STRING's)");
}

Duration upload_lifetime(std::optional<Duration> max_wall) {
  if (!max_wall) return azure::kMaxSasLifetime;
  return std::min<Duration>(*max_wall + std::chrono::hours(24), azure::kMaxSasLifetime);
}

Result<TaskInputs> prepare_task_inputs(const Settings& settings, const azure::AccountConfig& batch,
                                       const UploadFlags& flags, const std::string& job,
                                       Duration lifetime, const Clock& clock) {
  auto account = upload_storage(settings, batch, flags.storage);
  if (!account) return account.error();
  auto storage = open_storage(*account, clock);
  if (!storage) return storage.error();
  return upload_task_inputs(*storage, flags.dir, job, lifetime, clock);
}

void attach_task_inputs(nlohmann::json& task, const TaskInputs& inputs) {
  auto& files = task["resourceFiles"];
  if (!files.is_array()) files = nlohmann::json::array();
  for (const auto& f : inputs.resource_files) files.push_back(f);
  if (task.contains("outputFiles")) return;
  const std::string prefix = azure::task_output_prefix(task.value("id", ""));
  task["outputFiles"] = {
      output_file("outputs/**/*", inputs.outputs_url, prefix + "$TaskOutput"),
      output_file("../stdout.txt", inputs.outputs_url, prefix + "$TaskLog/stdout.txt"),
      output_file("../stderr.txt", inputs.outputs_url, prefix + "$TaskLog/stderr.txt")};
}

std::string inputs_line(const TaskInputs& inputs) {
  return fmt::format("inputs: {} file(s) ({}), {} sent ({}), {} already in storage account {}",
                     inputs.files, human_size(inputs.bytes), inputs.sent,
                     human_size(inputs.bytes_sent), inputs.files - inputs.sent, inputs.storage);
}

}  // namespace trainyard
