// Internal: the TUI's storage worker: listings, downloads, uploads and blob tails run on one
// thread of their own, each with the Blob client of its storage account, opened there on first
// use (a key command may take a while) and kept.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "app/settings.hpp"
#include "azure/blob_client.hpp"
#include "core/event_queue.hpp"
#include "core/time.hpp"
#include "core/work_queue.hpp"

namespace trainyard {

/// One piece of storage work, given its account's client; its success is a status text.
using StorageJob = std::function<Result<std::string>(azure::BlobClient&)>;

class StorageRunner {
 public:
  /// A worker for the storage accounts `settings` knows; it tells `events` each outcome (a
  /// listing's success only wakes the UI).
  StorageRunner(Settings settings, const Clock& clock, EventQueue& events);
  ~StorageRunner();
  StorageRunner(const StorageRunner&) = delete;
  StorageRunner& operator=(const StorageRunner&) = delete;

  /// Queues `job` on storage account `storage`. `quiet`: a success says nothing (a listing, a
  /// tail); else its text goes to the status line. `reply` runs on the UI thread afterwards.
  void submit(const std::string& storage, std::string what, StorageJob job, bool quiet,
              WorkQueue::Reply reply = {});
  /// Tells the status line `text` now (a transfer's progress), from any thread.
  void tell(std::string text);
  /// Jobs queued or running.
  size_t pending() const { return queue_->pending(); }
  /// Runs the replies of finished jobs (UI thread only); returns how many ran.
  size_t run_replies() { return queue_->run_replies(); }
  /// Waits for every queued job, then runs the replies (headless use).
  void settle() { queue_->settle(); }

 private:
  Result<azure::BlobClient*> client(const std::string& storage);

  Settings settings_;
  const Clock& clock_;
  EventQueue& events_;
  // The queue's thread's own.
  std::map<std::string, std::unique_ptr<azure::BlobClient>> clients_;
  std::unique_ptr<WorkQueue> queue_;  // last: its thread stops before the clients go
};

}  // namespace trainyard
