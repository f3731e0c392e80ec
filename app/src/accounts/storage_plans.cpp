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

namespace {

// Runs `transfer(i)` for each of `count` items, telling `watch`; stops at the first failure,
// naming `name(i)`.
template <class Transfer, class Name>
Result<TransferTotals> run_each(size_t count, const TransferWatch& watch, Transfer transfer,
                                Name name) {
  TransferTotals totals;
  for (size_t i = 0; i < count; ++i) {
    if (watch.starting) watch.starting(i, name(i));
    Result<azure::TransferResult> r = transfer(i);
    if (watch.ended) watch.ended(i, r);
    if (!r) return Error{r.error().kind, name(i) + ": " + r.error().message};
    totals.bytes += r->bytes;
    totals.files += 1;
    totals.verified += r->verified ? 1 : 0;
  }
  return totals;
}

}  // namespace

Result<TransferTotals> run_downloads(azure::BlobClient& c, const std::vector<Download>& plan,
                                     azure::TransferOptions options, const TransferWatch& watch) {
  options.progress = watch.progress;
  auto transfer = [&](size_t i) -> Result<azure::TransferResult> {
    const auto& d = plan[i];
    std::error_code ec;
    if (d.to.has_parent_path()) std::filesystem::create_directories(d.to.parent_path(), ec);
    return azure::download_blob(c, d.from.container, d.from.path, d.to.string(), options);
  };
  return run_each(plan.size(), watch, transfer, [&](size_t i) { return plan[i].from.path; });
}

Result<TransferTotals> run_uploads(azure::BlobClient& c, const std::vector<Upload>& plan,
                                   const std::string& container, azure::TransferOptions options,
                                   const TransferWatch& watch) {
  options.progress = watch.progress;
  auto transfer = [&](size_t i) {
    return azure::upload_file(c, plan[i].from.string(), container, plan[i].blob, options);
  };
  return run_each(plan.size(), watch, transfer, [&](size_t i) { return plan[i].from.string(); });
}

}  // namespace trainyard
