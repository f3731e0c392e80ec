// The Storage pane's downloads and uploads: a form asks where, then the storage worker moves
// the files one after the other (each in parallel blocks, checked with MD5), telling its
// progress to the status line a few times a second.
#include <cstdlib>
#include <filesystem>

#include <fmt/format.h>

#include "azure/blob_transfer.hpp"
#include "core/byte_size.hpp"
#include "core/sanitizer.hpp"
#include "storage_lookup.hpp"
#include "storage_plans.hpp"
#include "tui_batch.hpp"
#include "tui_storage.hpp"

namespace trainyard {

namespace fs = std::filesystem;

namespace {

// `~/x` as a shell would read it; the form's text reaches no shell.
fs::path local_path(const std::string& text) {
  const char* home = std::getenv("HOME");
  if (home && (text == "~" || text.starts_with("~/"))) return fs::path(home) / text.substr(2);
  return fs::path(text);
}

// Tells `runner` how a transfer goes, at most 4 times a second.
class ProgressTeller {
 public:
  ProgressTeller(StorageRunner& runner, std::string verb, size_t files)
      : runner_(runner), verb_(std::move(verb)), files_(files) {}
  void file(size_t index, std::string name) {
    index_ = index;
    name_ = std::move(name);
  }
  void operator()(uint64_t done, uint64_t total) {
    auto now = std::chrono::steady_clock::now();
    if (now - last_ < std::chrono::milliseconds(250) && done < total) return;
    last_ = now;
    int percent = total ? static_cast<int>(done * 100 / total) : 100;
    runner_.tell(fmt::format("{} {} ({}/{}): {}% of {}", verb_, name_, index_ + 1, files_, percent,
                             human_size(total)));
  }

 private:
  StorageRunner& runner_;
  std::string verb_;
  size_t files_, index_ = 0;
  std::string name_;
  std::chrono::steady_clock::time_point last_{};
};

// The blob's path as `storage get` takes it: a folder's ends in `/`, a container's is empty.
std::string source_of(const StorageLocation& at, const StorageEntry& e) {
  if (e.kind == StorageEntryKind::Container) return e.key + "/";
  return at.container + "/" + e.key;
}

// A folder or container lands in a folder of its own name below `dest`; a blob in `dest`.
fs::path destination_of(const StorageEntry& e, const fs::path& dest) {
  if (e.kind == StorageEntryKind::Blob) return dest;
  std::string name = e.name;
  if (name.ends_with('/')) name.pop_back();
  return dest / name;
}

// Tells `tell` each file as it starts and its bytes as they go.
TransferWatch watched_by(ProgressTeller& tell) {
  TransferWatch w;
  w.starting = [&tell](size_t i, const std::string& name) { tell.file(i, name); };
  w.progress = std::ref(tell);
  return w;
}

Result<std::string> download(StorageRunner& runner, azure::BlobClient& c, const std::string& source,
                             const fs::path& dest) {
  std::error_code ec;
  fs::create_directories(dest, ec);
  if (ec) return make_error(ErrorKind::Io, fmt::format("{}: {}", dest.string(), ec.message()));
  auto plan = plan_downloads(c, {source}, dest);
  if (!plan) return plan.error();
  ProgressTeller tell(runner, "downloading", plan->size());
  auto done = run_downloads(c, *plan, {}, watched_by(tell));
  if (!done) return done.error();
  return fmt::format("downloaded {} file(s), {} to {} ({} MD5-verified)", done->files,
                     human_size(done->bytes), dest.string(), done->verified);
}

Result<std::string> upload(StorageRunner& runner, azure::BlobClient& c, const StorageLocation& at,
                           const fs::path& from) {
  auto plan = plan_uploads({from.string()}, at.prefix);
  if (!plan) return plan.error();
  auto created = c.create_container(at.container);
  if (!created) return created.error();
  ProgressTeller tell(runner, "uploading", plan->size());
  auto done = run_uploads(c, *plan, at.container, {}, watched_by(tell));
  if (!done) return done.error();
  return fmt::format("uploaded {} file(s), {} to {}/{}", done->files, human_size(done->bytes),
                     at.container, at.prefix);
}

FieldError existing_path(const std::string& v) {
  if (v.empty()) return FieldError("this field is needed");
  std::error_code ec;
  return fs::exists(local_path(v), ec) ? FieldError() : FieldError("no such file or folder");
}

}  // namespace

void open_download_form(AppContext& ctx, TuiState& st, const StorageLocation& at,
                        const StorageEntry& entry) {
  Form f;
  f.title = "Download " + sanitize_text(source_of(at, entry));
  f.add("To folder", ".", "a local folder (made when missing)", required_field);
  f.note = {entry.kind == StorageEntryKind::Blob
                ? "The blob lands in the folder under its own name;"
                : "Its blobs land in a folder of its name there;",
            "a file there already is replaced once the new one is whole and checked."};
  open_form(st, std::move(f), [&ctx, &st, at, entry](const Form& form) {
    auto dest = destination_of(entry, local_path(form.value("To folder")));
    auto& runner = storage_runner(ctx, st);
    runner.submit(
        at.storage, "download " + source_of(at, entry),
        [&runner, source = source_of(at, entry), dest](azure::BlobClient& c) {
          return download(runner, c, source, dest);
        },
        false);
    set_status(st, "downloading " + sanitize_text(source_of(at, entry)) + "…");
  });
}

void open_upload_form(AppContext& ctx, TuiState& st, const StorageLocation& at,
                      std::function<void()> done) {
  Form f;
  f.title = "Upload to " + sanitize_text(at.container + "/" + at.prefix);
  f.add("File or folder", "", "a local path; a folder goes with everything in it", existing_path);
  f.note = {"A blob of the same name is replaced."};
  open_form(st, std::move(f), [&ctx, &st, at, done](const Form& form) {
    auto from = local_path(form.value("File or folder"));
    auto& runner = storage_runner(ctx, st);
    runner.submit(
        at.storage, "upload " + from.string(),
        [&runner, at, from](azure::BlobClient& c) { return upload(runner, c, at, from); }, false,
        [done](const Result<std::string>&) { done(); });
    set_status(st, "uploading " + sanitize_text(from.string()) + "…");
  });
}

}  // namespace trainyard
