#include "task_output_sources.hpp"

#include <filesystem>
#include <fstream>
#include <map>

#include <fmt/format.h>

#include "azure/parse.hpp"
#include "azure/task_outputs.hpp"
#include "storage_lookup.hpp"

namespace trainyard {

const char* to_string(OutputSource s) {
  switch (s) {
    case OutputSource::Node:
      return "node";
    case OutputSource::OutputFiles:
      return "outputFiles";
    case OutputSource::Conventions:
      return "conventions";
  }
  return "?";
}

namespace {

struct Finder {
  const Settings& settings;
  azure::BatchClient& batch;
  const Clock& clock;
  TaskOutputs out;
  // Clients by storage account name (null where opening failed, already noted), so that each
  // account's secret is resolved once however many sources ask for it.
  std::map<std::string, std::shared_ptr<azure::BlobClient>> clients;
  std::map<const azure::BlobClient*, std::string> names;  // each client's account name

  std::shared_ptr<azure::BlobClient> open(const azure::StorageAccountConfig& account) {
    if (auto it = clients.find(account.name); it != clients.end()) return it->second;
    auto c = open_blob_client(account, clock);
    if (!c)
      out.notes.push_back(fmt::format("storage account '{}': {}", account.name, c.error().message));
    auto& slot = clients[account.name];
    if (c) slot = std::shared_ptr<azure::BlobClient>(std::move(*c));
    if (slot) names[slot.get()] = account.name;
    return slot;
  }

  // The known account (config.json's or the environment's) whose Blob endpoint is `endpoint`.
  std::shared_ptr<azure::BlobClient> client_for(const std::string& endpoint) {
    std::vector<azure::StorageAccountConfig> known = settings.storage_accounts;
    if (auto env = azure::storage_account_from_environment(azure::environment_map()))
      known.push_back(*env);
    for (const auto& a : known) {
      auto c = open(a);
      if (c && c->endpoint() == endpoint) return c;
    }
    return nullptr;
  }

  void add_blobs(OutputSource source, const std::shared_ptr<azure::BlobClient>& c,
                 const std::string& container, const std::string& prefix) {
    auto ok = c->list(container, prefix, "", [&](azure::BlobListPage& page) -> Result<void> {
      for (auto& b : page.blobs) {
        std::string local =
            source == OutputSource::Conventions ? b.name.substr(prefix.size()) : b.name;
        out.items.push_back(
            {source, b.name, container, b.size, b.last_modified, local, c, names[c.get()]});
      }
      return {};
    });
    if (!ok && ok.error().kind != ErrorKind::NotFound)
      out.notes.push_back(
          fmt::format("{} {}/{}: {}", to_string(source), container, prefix, ok.error().message));
  }

  void node_files(const std::string& job, const std::string& task) {
    auto files = azure::list_task_files(batch, job, task);
    if (!files) {
      out.notes.push_back("node files: " + files.error().message);
      return;
    }
    for (auto& f : *files)
      out.items.push_back(
          {OutputSource::Node, f.name, "", f.size, f.last_modified, "node/" + f.name, nullptr});
  }

  void output_files(const Task& t) {
    for (const auto& of : t.output_files) {
      auto where = azure::parse_container_url(of.container_url);
      if (!where) continue;
      auto c = client_for(where->endpoint);
      if (!c) {
        out.notes.push_back(fmt::format(
            "outputFiles to {}: no storage account in config.json or the environment reaches it",
            azure::redact_url(of.container_url)));
        continue;
      }
      add_blobs(OutputSource::OutputFiles, c, where->container, of.path);
    }
  }
};

std::optional<azure::StorageAccountConfig> conventions_account(const Settings& settings,
                                                               const azure::AccountConfig& account,
                                                               const std::string& storage_name,
                                                               std::vector<std::string>& notes) {
  auto found =
      find_storage_account(settings, storage_name.empty() ? account.auto_storage : storage_name);
  if (found) return *found;
  notes.push_back("conventions container: " + found.error().message +
                  " (or set autoStorage on the Batch account)");
  return std::nullopt;
}

}  // namespace

Result<TaskOutputs> find_task_outputs(const Settings& settings, azure::BatchClient& batch,
                                      const azure::AccountConfig& account,
                                      const std::string& storage_name, const std::string& job,
                                      const std::string& task, const Clock& clock) {
  auto r = batch.call(
      "GET", fmt::format("/jobs/{}/tasks/{}", azure::url_encode(job), azure::url_encode(task)));
  if (!r) return r.error();
  auto body = azure::parse_json_body(r->body);
  if (!body) return body.error();
  auto t = azure::parse_task(*body, account.name, job);
  if (!t) return t.error();
  Finder f{settings, batch, clock, {}, {}, {}};
  f.node_files(job, task);
  f.output_files(*t);
  if (auto storage = conventions_account(settings, account, storage_name, f.out.notes)) {
    if (auto c = f.open(*storage))
      f.add_blobs(OutputSource::Conventions, c, azure::job_output_container(job),
                  azure::task_output_prefix(task));
  }
  f.out.task = std::move(*t);
  return std::move(f.out);
}

namespace {

constexpr int64_t kNodeChunk = int64_t{8} << 20;

namespace fs = std::filesystem;

// A node file by ranges into `dest` (through a partial file renamed when whole).
Result<void> get_node_file(azure::BatchClient& batch, const std::string& job,
                           const std::string& task, const TaskOutput& o, const fs::path& dest) {
  const std::string path = fmt::format("/jobs/{}/tasks/{}/files/{}", azure::url_encode(job),
                                       azure::url_encode(task), azure::url_encode_path(o.name));
  const fs::path part = dest.string() + azure::kPartialSuffix;
  std::ofstream file(part, std::ios::binary | std::ios::trunc);
  for (uint64_t at = 0; at < o.size; at += kNodeChunk) {
    const uint64_t end = std::min<uint64_t>(o.size, at + kNodeChunk) - 1;
    auto r = batch.call("GET", path, {}, "", {{"ocp-range", fmt::format("bytes={}-{}", at, end)}});
    if (!r) return make_error(r.error().kind, o.name + ": " + r.error().message);
    file.write(r->body.data(), static_cast<std::streamsize>(r->body.size()));
  }
  file.close();
  if (!file) return make_error(ErrorKind::Io, part.string() + ": cannot be written");
  std::error_code ec;
  fs::rename(part, dest, ec);
  if (ec) return make_error(ErrorKind::Io, dest.string() + ": " + ec.message());
  return {};
}

}  // namespace

Result<void> fetch_task_output(azure::BatchClient& batch, const std::string& job,
                               const std::string& task, const TaskOutput& o, const std::string& dir,
                               const azure::TransferOptions& options) {
  auto rel = safe_relative_path(o.local_name, "");
  if (!rel) return rel.error();
  const fs::path dest = fs::path(dir) / *rel;
  std::error_code ec;
  fs::create_directories(dest.parent_path(), ec);
  if (!o.client) return get_node_file(batch, job, task, o, dest);
  auto r = azure::download_blob(*o.client, o.container, o.name, dest.string(), options);
  if (!r) return r.error();
  return {};
}

}  // namespace trainyard
