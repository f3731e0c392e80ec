// `trainyard storage get` and `storage put`: files to and from blobs, with a progress bar.
#include <filesystem>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/blob_transfer.hpp"
#include "cmd_storage.hpp"
#include "output.hpp"
#include "progress_line.hpp"
#include "storage_lookup.hpp"

namespace trainyard {

namespace fs = std::filesystem;

namespace {

struct Download {
  BlobPath from;
  fs::path to;
};

Result<void> add_prefix(azure::BlobClient& c, const BlobPath& p, const fs::path& dest,
                        std::vector<Download>& out) {
  size_t found = 0;
  auto ok = c.list(p.container, p.path, "", [&](azure::BlobListPage& page) -> Result<void> {
    for (const auto& b : page.blobs) {
      auto rel = safe_relative_path(b.name, p.path);
      if (!rel) return rel.error();
      out.push_back({{p.container, b.name}, dest / *rel});
      ++found;
    }
    return {};
  });
  if (!ok) return ok;
  if (found == 0)
    return make_error(ErrorKind::NotFound,
                      fmt::format("no blobs under {}/{}", p.container, p.path));
  return {};
}

Result<std::vector<Download>> plan_downloads(azure::BlobClient& c,
                                             const std::vector<std::string>& sources,
                                             const fs::path& dest) {
  std::vector<Download> out;
  const bool into_folder = sources.size() > 1 || fs::is_directory(dest);
  for (const auto& s : sources) {
    auto p = parse_blob_path(s);
    if (!p) return p.error();
    if (p->path.empty() || p->path.ends_with('/')) {
      if (auto ok = add_prefix(c, *p, dest, out); !ok) return ok.error();
      continue;
    }
    auto rel = safe_relative_path(p->path, p->path.substr(0, p->path.rfind('/') + 1));
    if (!rel) return rel.error();
    out.push_back({*p, into_folder ? dest / *rel : dest});
  }
  return out;
}

void say_got(const Download& d, const azure::TransferResult& r) {
  std::string how = r.verified ? "MD5 verified" : "the blob has no MD5 to check";
  if (r.resumed_from > 0) how += fmt::format(", resumed at {}", human_size(r.resumed_from));
  out::print("got {}/{} -> {} ({}, {})", d.from.container, d.from.path, d.to.string(),
             human_size(r.bytes), how);
}

}  // namespace

int storage_get(const StorageFlags& f) {
  auto s = open_storage(f);
  if (!s) return report_failure("storage get", s.error());
  auto& client = *(*s)->client;
  std::vector<std::string> sources(f.paths.begin(), f.paths.end() - 1);
  auto plan = plan_downloads(client, sources, fs::path(f.paths.back()));
  if (!plan) return report_failure("storage get", plan.error());
  for (const auto& d : *plan) {
    std::error_code ec;
    if (d.to.has_parent_path()) fs::create_directories(d.to.parent_path(), ec);
    ProgressLine bar(d.from.path);
    azure::TransferOptions options;
    options.parallel = f.parallel;
    options.progress = [&](uint64_t done, uint64_t total) { bar.update(done, total); };
    auto r = azure::download_blob(client, d.from.container, d.from.path, d.to.string(), options);
    bar.done();
    if (!r) return report_failure("storage get", r.error());
    say_got(d, *r);
  }
  return kExitOk;
}

namespace {

struct Upload {
  fs::path from;
  std::string blob;
};

std::string joined(const std::string& prefix, const std::string& rel) {
  if (prefix.empty() || prefix.ends_with('/')) return prefix + rel;
  return prefix + "/" + rel;
}

Result<void> add_folder(const fs::path& root, const std::string& prefix, std::vector<Upload>& out) {
  std::error_code ec;
  const std::string base = joined(prefix, root.lexically_normal().filename().string());
  for (auto it = fs::recursive_directory_iterator(root, ec); !ec && it != fs::end(it);
       it.increment(ec)) {
    if (!it->is_regular_file()) continue;
    out.push_back({it->path(), joined(base, it->path().lexically_relative(root).generic_string())});
  }
  if (ec) return make_error(ErrorKind::Io, fmt::format("{}: {}", root.string(), ec.message()));
  return {};
}

Result<std::vector<Upload>> plan_uploads(const std::vector<std::string>& sources,
                                         const std::string& prefix) {
  std::vector<Upload> out;
  for (const auto& s : sources) {
    fs::path p = fs::path(s).lexically_normal();
    if (p.filename().empty()) p = p.parent_path();  // `dir/` names the folder itself
    if (fs::is_directory(p)) {
      if (auto ok = add_folder(p, prefix, out); !ok) return ok.error();
    } else if (fs::is_regular_file(p)) {
      out.push_back({p, joined(prefix, p.filename().string())});
    } else {
      return make_error(ErrorKind::Usage, s + ": no such file or folder");
    }
  }
  return out;
}

}  // namespace

int storage_put(const StorageFlags& f) {
  auto target = parse_blob_path(f.paths.back());
  if (!target) return report_failure("storage put", target.error());
  auto plan = plan_uploads({f.paths.begin(), f.paths.end() - 1}, target->path);
  if (!plan) return report_failure("storage put", plan.error());
  auto s = open_storage(f);
  if (!s) return report_failure("storage put", s.error());
  auto& client = *(*s)->client;
  auto created = client.create_container(target->container);
  if (!created) return report_failure("storage put", created.error());
  if (*created) out::print("created container {}", target->container);
  for (const auto& u : *plan) {
    ProgressLine bar(u.from.string());
    azure::TransferOptions options;
    options.parallel = f.parallel;
    options.progress = [&](uint64_t done, uint64_t total) { bar.update(done, total); };
    auto r = azure::upload_file(client, u.from.string(), target->container, u.blob, options);
    bar.done();
    if (!r) return report_failure("storage put", r.error());
    out::print("put {} -> {}/{} ({}, MD5 {})", u.from.string(), target->container, u.blob,
               human_size(r->bytes), r->content_md5);
  }
  return kExitOk;
}

}  // namespace trainyard
