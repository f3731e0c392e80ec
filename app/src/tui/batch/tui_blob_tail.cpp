// A text blob in the log view: the storage worker copies it into the data directory in ranged
// reads, each from where the copy ends, so the view reads it as it reads a task's log.
#include <cstdio>
#include <filesystem>
#include <fstream>

#include <fmt/format.h>

#include "tui_pane_routes.hpp"
#include "tui_storage.hpp"

namespace trainyard {

namespace {

// Bytes one read asks for; a longer blob takes several, one after the other.
constexpr uint64_t kTailChunk = uint64_t{4} << 20;
constexpr char kBlobPrefix[] = "blob:";

// FNV-1a: a stable name for the copy that no blob name can steer out of its folder.
uint64_t fnv1a(const std::string& text) {
  uint64_t h = 1469598103934665603ull;
  for (unsigned char ch : text) h = (h ^ ch) * 1099511628211ull;
  return h;
}

/// What one read found.
struct TailRead {
  uint64_t offset = 0;  ///< where the copy ends now
  bool more = false;    ///< the blob goes on past the copy
};

Result<void> write_copy(const std::string& path, uint64_t offset, const std::string& data) {
  std::ofstream out(
      path, offset == 0 ? std::ios::binary | std::ios::trunc : std::ios::binary | std::ios::app);
  out.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!out) return make_error(ErrorKind::Io, path + ": cannot write the blob's copy");
  return {};
}

// Reads from the copy's end, as `tail -f` does: a blob that grew (an append blob, or one
// rewritten longer) is read on from there; one now shorter than the copy is read again from 0.
// An ETag cannot tell the two apart: every append to an append blob changes it.
Result<TailRead> read_tail(azure::BlobClient& c, const BlobTail& t) {
  auto r = c.read_range(t.blob.container, t.blob.blob, t.offset, kTailChunk);
  uint64_t offset = t.offset;
  if (r && r->blob.size < t.offset) {
    offset = 0;
    r = c.read_range(t.blob.container, t.blob.blob, 0, kTailChunk);
  }
  if (!r) return r.error();
  if (auto ok = write_copy(t.path, offset, r->data); !ok) return ok.error();
  TailRead out;
  out.offset = offset + r->data.size();
  out.more = out.offset < r->blob.size;
  return out;
}

void submit_read(TuiState& st, BlobTail& tail) {
  tail.reading = true;
  tail.last_read = std::chrono::steady_clock::now();
  auto found = std::make_shared<TailRead>();
  st.work.storage->submit(
      tail.blob.storage, "read " + tail.blob.container + "/" + tail.blob.blob,
      [copy = tail, found](azure::BlobClient& c) -> Result<std::string> {
        auto r = read_tail(c, copy);
        if (!r) return r.error();
        *found = *r;
        return std::string();
      },
      true,
      [&tail, serial = tail.serial, found](const Result<std::string>& r) {
        if (tail.serial != serial) return;  // the view has moved to another blob since
        tail.reading = false;
        if (!r) return void(tail.more = false);
        tail.offset = found->offset;
        tail.more = found->more;
      });
}

}  // namespace

std::string blob_log_entity(const BlobRef& b) {
  return kBlobPrefix + b.storage + "/" + b.container + "/" + b.blob;
}

std::optional<BlobRef> blob_of_frame(const Frame& f) {
  if (!shows_log(f) || !f.entity.starts_with(kBlobPrefix)) return std::nullopt;
  auto at = parse_location(f.entity.substr(sizeof(kBlobPrefix) - 1));
  if (at.storage.empty() || at.container.empty() || at.prefix.empty()) return std::nullopt;
  return BlobRef{at.storage, at.container, at.prefix};
}

std::string blob_copy_path(const std::string& data_dir, const BlobRef& b) {
  return fmt::format("{}/blob-logs/{:016x}.txt", data_dir,
                     fnv1a(b.storage + '\0' + b.container + '\0' + b.blob));
}

void start_blob_tail(AppContext& ctx, TuiState& st, BlobTail& tail, BlobRef blob) {
  storage_runner(ctx, st);
  uint64_t serial = tail.serial + 1;
  tail = BlobTail{};
  tail.serial = serial;
  tail.path = blob_copy_path(ctx.data_dir, blob);
  tail.blob = std::move(blob);
  std::error_code ec;
  std::filesystem::create_directories(std::filesystem::path(tail.path).parent_path(), ec);
  std::remove(tail.path.c_str());  // an earlier opening's copy may be of another version
  submit_read(st, tail);
}

void step_blob_tail(TuiState& st, BlobTail& tail, bool follow) {
  if (!st.work.storage || tail.reading || tail.path.empty()) return;
  bool due = tail.more || (follow && std::chrono::steady_clock::now() - tail.last_read >=
                                         std::chrono::seconds(1));
  if (due) submit_read(st, tail);
}

}  // namespace trainyard
