#include "task_output_sources.hpp"

#include <fmt/format.h>

#include "account_lookup.hpp"
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
  // Clients opened so far, by Blob endpoint, so that each account's secret is resolved once.
  std::vector<std::shared_ptr<azure::BlobClient>> clients;

  std::shared_ptr<azure::BlobClient> open(const azure::StorageAccountConfig& account) {
    auto c = open_blob_client(account, clock);
    if (!c) {
      out.notes.push_back(fmt::format("storage account '{}': {}", account.name, c.error().message));
      return nullptr;
    }
    clients.push_back(std::shared_ptr<azure::BlobClient>(std::move(*c)));
    return clients.back();
  }

  // The configured account whose Blob endpoint is `endpoint`.
  std::shared_ptr<azure::BlobClient> client_for(const std::string& endpoint) {
    for (const auto& c : clients)
      if (c->endpoint() == endpoint) return c;
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
        out.items.push_back({source, b.name, container, b.size, b.last_modified, local, c});
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
                                                               const std::string& account_name,
                                                               const std::string& storage_name,
                                                               std::vector<std::string>& notes) {
  std::string name = storage_name;
  if (name.empty()) {
    auto account = find_account(settings, account_name);
    if (account) name = account->auto_storage;
  }
  auto found = find_storage_account(settings, name);
  if (found) return *found;
  notes.push_back("conventions container: " + found.error().message +
                  " (or set autoStorage on the Batch account)");
  return std::nullopt;
}

}  // namespace

Result<TaskOutputs> find_task_outputs(const Settings& settings, azure::BatchClient& batch,
                                      const std::string& account_name,
                                      const std::string& storage_name, const std::string& job,
                                      const std::string& task, const Clock& clock) {
  auto r = batch.call(
      "GET", fmt::format("/jobs/{}/tasks/{}", azure::url_encode(job), azure::url_encode(task)));
  if (!r) return r.error();
  auto body = azure::parse_json_body(r->body);
  if (!body) return body.error();
  auto t = azure::parse_task(*body, account_name, job);
  if (!t) return t.error();
  Finder f{settings, batch, clock, {}, {}};
  f.node_files(job, task);
  f.output_files(*t);
  if (auto account = conventions_account(settings, account_name, storage_name, f.out.notes)) {
    if (auto c = f.open(*account))
      f.add_blobs(OutputSource::Conventions, c, azure::job_output_container(job),
                  azure::task_output_prefix(task));
  }
  return std::move(f.out);
}

}  // namespace trainyard
