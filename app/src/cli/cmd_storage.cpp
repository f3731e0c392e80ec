// `trainyard storage ls|cat|get|put`: containers and blobs of a storage account.
#include "cmd_storage.hpp"

#include <thread>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "log_printer.hpp"
#include "output.hpp"
#include "storage_lookup.hpp"

namespace trainyard {

namespace {

using nlohmann::json;

// A prefix without its trailing slash that names a folder lists the folder (as `ls dir` does).
Result<std::string> listed_prefix(azure::BlobClient& c, const BlobPath& p) {
  if (p.path.empty() || p.path.ends_with('/')) return p.path;
  auto probe = c.list_page(p.container, p.path, "/", "", 2);
  if (!probe) return probe.error();
  const bool folder =
      probe->blobs.empty() && probe->prefixes.size() == 1 && probe->prefixes[0] == p.path + "/";
  return folder ? p.path + "/" : p.path;
}

Result<azure::BlobListPage> whole_listing(azure::BlobClient& c, const BlobPath& p) {
  auto prefix = listed_prefix(c, p);
  if (!prefix) return prefix.error();
  azure::BlobListPage all;
  auto ok = c.list(p.container, *prefix, "/", [&](azure::BlobListPage& page) -> Result<void> {
    all.prefixes.insert(all.prefixes.end(), page.prefixes.begin(), page.prefixes.end());
    std::move(page.blobs.begin(), page.blobs.end(), std::back_inserter(all.blobs));
    return {};
  });
  if (!ok) return ok.error();
  return all;
}

json listing_json(const azure::BlobListPage& page) {
  json out = json::array();
  for (const auto& p : page.prefixes) out.push_back({{"name", p}, {"folder", true}});
  for (const auto& b : page.blobs)
    out.push_back({{"name", b.name},
                   {"folder", false},
                   {"size", b.size},
                   {"lastModified", listing_time(b.last_modified)},
                   {"contentType", b.content_type},
                   {"contentMD5", b.content_md5}});
  return out;
}

void print_listing(const azure::BlobListPage& page) {
  for (const auto& p : page.prefixes) out::print("{:>10}  {:<20}  {}", "DIR", "", p);
  for (const auto& b : page.blobs)
    out::print("{:>10}  {:<20}  {}", human_size(b.size), listing_time(b.last_modified), b.name);
}

int list_containers(azure::BlobClient& c, bool as_json) {
  auto containers = c.containers();
  if (!containers) return report_failure("storage ls", containers.error());
  if (as_json) {
    json out = json::array();
    for (const auto& k : *containers)
      out.push_back({{"name", k.name}, {"lastModified", listing_time(k.last_modified)}});
    out::json(out);
    return kExitOk;
  }
  for (const auto& k : *containers) out::print("{:<20}  {}", listing_time(k.last_modified), k.name);
  return kExitOk;
}

}  // namespace

Result<std::unique_ptr<StorageSession>> open_storage(const StorageFlags& f) {
  release_transfer_buffers_when_freed();
  auto settings = load_settings(default_config_path());
  if (!settings) return settings.error();
  auto account = find_storage_account(*settings, f.storage);
  if (!account) return account.error();
  auto s = std::make_unique<StorageSession>();
  auto client = open_blob_client(*account, s->clock);
  if (!client) return client.error();
  s->client = std::move(*client);
  return s;
}

int storage_ls(const StorageFlags& f) {
  auto s = open_storage(f);
  if (!s) return report_failure("storage ls", s.error());
  if (f.target.empty()) return list_containers(*(*s)->client, f.json);
  auto path = parse_blob_path(f.target);
  if (!path) return report_failure("storage ls", path.error());
  auto page = whole_listing(*(*s)->client, *path);
  if (!page) return report_failure("storage ls " + f.target, page.error());
  if (f.json) {
    out::json(listing_json(*page));
  } else {
    print_listing(*page);
  }
  return kExitOk;
}

namespace {

constexpr uint64_t kCatChunk = uint64_t{4} << 20;

// Prints from `offset` to the blob's end as it is now; the new offset.
Result<uint64_t> print_from(azure::BlobClient& c, const BlobPath& p, uint64_t offset,
                            LogPrinter& printer) {
  while (true) {
    auto range = c.read_range(p.container, p.path, offset, kCatChunk);
    if (!range) return range.error();
    printer.write(range->data);
    offset += range->data.size();
    if (range->data.size() < kCatChunk || offset >= range->blob.size) return offset;
  }
}

}  // namespace

int storage_cat(const StorageFlags& f) {
  auto s = open_storage(f);
  if (!s) return report_failure("storage cat", s.error());
  auto path = parse_blob_path(f.target);
  if (path && path->path.empty())
    path = make_error(ErrorKind::Usage, "'" + f.target + "': name a blob (CONTAINER/BLOB)");
  if (!path) return report_failure("storage cat", path.error());
  LogPrinter printer(stdout, false);
  uint64_t offset = 0;
  while (true) {
    auto next = print_from(*(*s)->client, *path, offset, printer);
    if (!next) return report_failure("storage cat " + f.target, next.error());
    offset = *next;
    std::fflush(stdout);
    if (!f.follow) break;
    // A blob someone appends to (an append blob, or one rewritten larger) is read on from here.
    std::this_thread::sleep_for(std::chrono::seconds(1));
  }
  printer.finish();
  return kExitOk;
}

void register_storage(CLI::App& app, CliState& st) {
  auto* storage = app.add_subcommand("storage", "Containers and blobs of an Azure storage account");
  storage->require_subcommand(1);
  auto f = std::make_shared<StorageFlags>();
  auto with_account = [&](CLI::App* c) {
    c->add_option("--storage", f->storage,
                  "Storage account (config.json storageAccounts, or AZURE_STORAGE_*)");
  };
  auto* ls = storage->add_subcommand("ls", "List containers, or blobs and folders under a prefix");
  with_account(ls);
  ls->add_option("target", f->target, "CONTAINER[/PREFIX] (none: the containers)");
  ls->add_flag("--json", f->json, "Print JSON");
  ls->callback([&st, f] { st.action = [f] { return storage_ls(*f); }; });
  auto* cat = storage->add_subcommand("cat", "Print a text blob (sanitized); -f follows it");
  with_account(cat);
  cat->add_option("target", f->target, "CONTAINER/BLOB")->required();
  cat->add_flag("-f,--follow", f->follow, "Keep printing what is added, until interrupted");
  cat->callback([&st, f] { st.action = [f] { return storage_cat(*f); }; });
  auto* get = storage->add_subcommand("get", "Download blobs (a PREFIX/ gets everything under it)");
  with_account(get);
  get->add_option("paths", f->paths, "CONTAINER/BLOB... DEST")->required()->expected(2, -1);
  get->add_option("--parallel", f->parallel, "Ranges in flight at once")->check(CLI::Range(1, 32));
  get->callback([&st, f] { st.action = [f] { return storage_get(*f); }; });
  auto* put = storage->add_subcommand("put", "Upload files and folders (recursively)");
  with_account(put);
  put->add_option("paths", f->paths, "PATH... CONTAINER[/PREFIX]")->required()->expected(2, -1);
  put->add_option("--parallel", f->parallel, "Blocks in flight at once")->check(CLI::Range(1, 32));
  put->callback([&st, f] { st.action = [f] { return storage_put(*f); }; });
}

}  // namespace trainyard
