#include "storage_plans.hpp"

#include <fmt/format.h>

namespace trainyard {

namespace fs = std::filesystem;

namespace {

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

}  // namespace

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

}  // namespace trainyard
