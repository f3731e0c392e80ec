// `trainyard storage get` and `storage put`: files to and from blobs, with a progress bar.
#include <filesystem>
#include <memory>
#include <optional>

#include <fmt/format.h>

#include "action_util.hpp"
#include "app/cli.hpp"
#include "azure/blob_transfer.hpp"
#include "cmd_storage.hpp"
#include "output.hpp"
#include "progress_line.hpp"
#include "storage_lookup.hpp"
#include "storage_plans.hpp"

namespace trainyard {

namespace fs = std::filesystem;

namespace {

void say_got(const Download& d, const azure::TransferResult& r) {
  std::string how = r.verified ? "MD5 verified" : "the blob has no MD5 to check";
  if (r.resumed_from > 0) how += fmt::format(", resumed at {}", human_size(r.resumed_from));
  out::print("got {}/{} -> {} ({}, {})", d.from.container, d.from.path, d.to.string(),
             human_size(r.bytes), how);
}

// A progress bar per file, on stderr while it goes.
TransferWatch progress_bars() {
  auto bar = std::make_shared<std::optional<ProgressLine>>();
  TransferWatch w;
  w.starting = [bar](size_t, const std::string& name) { bar->emplace(name); };
  w.progress = [bar](uint64_t done, uint64_t total) { (*bar)->update(done, total); };
  w.ended = [bar](size_t, const Result<azure::TransferResult>&) {
    (*bar)->done();
    bar->reset();
  };
  return w;
}

}  // namespace

int storage_get(const StorageFlags& f) {
  auto s = open_storage(f);
  if (!s) return report_failure("storage get", s.error());
  auto& client = *(*s)->client;
  std::vector<std::string> sources(f.paths.begin(), f.paths.end() - 1);
  auto plan = plan_downloads(client, sources, fs::path(f.paths.back()));
  if (!plan) return report_failure("storage get", plan.error());
  TransferWatch watch = progress_bars();
  watch.ended = [&, bars = watch.ended](size_t i, const Result<azure::TransferResult>& r) {
    bars(i, r);
    if (r) say_got((*plan)[i], *r);
  };
  azure::TransferOptions options;
  options.parallel = f.parallel;
  auto done = run_downloads(client, *plan, options, watch);
  if (!done) return report_failure("storage get", done.error());
  return kExitOk;
}

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
  TransferWatch watch = progress_bars();
  watch.ended = [&, bars = watch.ended](size_t i, const Result<azure::TransferResult>& r) {
    bars(i, r);
    const auto& u = (*plan)[i];
    if (r)
      out::print("put {} -> {}/{} ({}, MD5 {})", u.from.string(), target->container, u.blob,
                 human_size(r->bytes), r->content_md5);
  };
  azure::TransferOptions options;
  options.parallel = f.parallel;
  auto done = run_uploads(client, *plan, target->container, options, watch);
  if (!done) return report_failure("storage put", done.error());
  return kExitOk;
}

}  // namespace trainyard
