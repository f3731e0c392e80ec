#include "task_output_sources.hpp"

#include <fnmatch.h>

#include <filesystem>
#include <fstream>
#include <functional>
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

  std::map<std::string, size_t> listed;  // endpoint|container|name → its place in out.items

  // The blobs under `prefix` that `keep` accepts (all without one), each once across sources.
  void add_blobs(OutputSource source, const std::shared_ptr<azure::BlobClient>& c,
                 const std::string& container, const std::string& prefix,
                 const std::function<bool(const std::string&)>& keep = nullptr) {
    auto ok = c->list(container, prefix, "", [&](azure::BlobListPage& page) -> Result<void> {
      for (auto& b : page.blobs) {
        if (keep && !keep(b.name)) continue;
        std::string local =
            source == OutputSource::Conventions ? b.name.substr(prefix.size()) : b.name;
        auto [at, fresh] =
            listed.emplace(c->endpoint() + "|" + container + "|" + b.name, out.items.size());
        if (!fresh) {
          // An outputFiles destination inside the conventions container: one blob, named
          // as the conventions name it (`$TaskOutput/…`).
          if (source == OutputSource::Conventions)
            out.items[at->second].source = source, out.items[at->second].local_name = local;
          continue;
        }
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
      add_blobs(OutputSource::OutputFiles, c, where->container, of.path,
                [&of](const std::string& name) { return output_file_holds(of, name); });
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

bool output_file_holds(const OutputFile& f, const std::string& name) {
  const std::string& pattern = f.file_pattern;
  if (pattern.find_first_of("*?[") == std::string::npos) {
    const auto slash = pattern.find_last_of('/');
    return name ==
           (f.path.empty() ? pattern.substr(slash == std::string::npos ? 0 : slash + 1) : f.path);
  }
  const std::string dir = f.path.empty() ? "" : f.path + "/";
  if (name.size() <= dir.size() || name.compare(0, dir.size(), dir) != 0) return false;
  // The pattern after its fixed folders, matched against the name after `path/` (`*` crosses
  // folders here, as `**` does).
  size_t tail = 0;
  for (size_t next = pattern.find('/'); next != std::string::npos; next = pattern.find('/', tail)) {
    if (pattern.find_first_of("*?[", tail) < next) break;
    tail = next + 1;
  }
  std::string rest = pattern.substr(tail);
  const char* below = name.c_str() + dir.size();
  if (::fnmatch(rest.c_str(), below, 0) == 0) return true;
  // `**/` also stands for no folder at all.
  for (size_t at = rest.find("**/"); at != std::string::npos; at = rest.find("**/", at))
    rest.erase(at, 3);
  return ::fnmatch(rest.c_str(), below, 0) == 0;
}

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
  Finder f{settings, batch, clock, {}, {}, {}, {}};
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
