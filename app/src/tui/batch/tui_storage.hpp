// Internal: the TUI's Storage pane (tui_pane_storage.cpp): storage accounts, containers and
// blobs as folders; downloads and uploads (tui_storage_transfers.cpp); a text blob in the log
// view, followed as a task's log is (tui_blob_tail.cpp).
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>

#include "storage_browser.hpp"
#include "storage_runner.hpp"
#include "tui_state.hpp"

namespace trainyard {

/// The TUI's storage worker, started on first use.
StorageRunner& storage_runner(AppContext& ctx, TuiState& st);

/// `:storage [S[/C[/PREFIX]]]`: the Storage pane, at that place.
void open_storage_pane(AppContext& ctx, TuiState& st, const std::string& where);

/// `d` on the Storage pane: asks for a local folder, then downloads `entry` (a blob, a folder
/// or a whole container) there on the storage worker, its progress in the status line.
void open_download_form(AppContext& ctx, TuiState& st, const StorageLocation& at,
                        const StorageEntry& entry);
/// `u` on the Storage pane: asks for a local file or folder, then uploads it into `at` (a
/// container or a folder of one); `done` runs on the UI thread once it is there.
void open_upload_form(AppContext& ctx, TuiState& st, const StorageLocation& at,
                      std::function<void()> done);

/// A blob shown in the log view: the Logs frame's `entity` is `blob:` and its location.
struct BlobRef {
  std::string storage, container, blob;
};
/// The Logs frame's entity for `b`, and the blob a Logs frame shows (none: a task's log).
std::string blob_log_entity(const BlobRef& b);
std::optional<BlobRef> blob_of_frame(const Frame& f);
/// Where the log view keeps its copy of the blob, in the data directory.
std::string blob_copy_path(const std::string& data_dir, const BlobRef& b);

/// How much of a blob the log view has copied, and what it reads next.
struct BlobTail {
  BlobRef blob;
  std::string path;      ///< the copy
  uint64_t offset = 0;   ///< bytes copied
  bool reading = false;  ///< a read is with the worker
  bool more = true;      ///< the last read did not reach the end: read on at once
  uint64_t serial = 0;   ///< which opening of the view a read belongs to
  std::chrono::steady_clock::time_point last_read{};
};
/// Starts a fresh copy of the blob for the log view (an earlier copy is dropped).
void start_blob_tail(AppContext& ctx, TuiState& st, BlobTail& tail, BlobRef blob);
/// Reads on when due: at once while there is more, else each second while `follow`.
void step_blob_tail(TuiState& st, BlobTail& tail, bool follow);

}  // namespace trainyard
