#include "storage_runner.hpp"

#include "core/sanitizer.hpp"
#include "storage_lookup.hpp"

namespace trainyard {

namespace {

// The origin a storage job's outcome carries: the status line names the Storage pane.
constexpr const char* kOrigin = "storage";

// Marks a quiet job's name, so its success wakes the UI without a status message.
constexpr char kQuiet = '\x01';

}  // namespace

StorageRunner::StorageRunner(Settings settings, const Clock& clock, EventQueue& events)
    : settings_(std::move(settings)),
      clock_(clock),
      events_(events),
      queue_(std::make_unique<WorkQueue>(
          [this](const std::string& what, const std::string& origin, const Result<std::string>& r) {
            bool quiet = !what.empty() && what.front() == kQuiet;
            if (r && quiet) return events_.post(Wake{});
            std::string name = quiet ? what.substr(1) : what;
            // A server's message is outside text: it reaches the status line sanitized.
            events_.post(
                r ? StatusMessage{sanitize_text(*r), false, origin}
                  : StatusMessage{sanitize_text(name + ": " + r.error().message), true, origin});
          })) {}

StorageRunner::~StorageRunner() {
  queue_.reset();  // joins the thread before the clients go
}

void StorageRunner::submit(const std::string& storage, std::string what, StorageJob job, bool quiet,
                           WorkQueue::Reply reply) {
  if (quiet) what.insert(what.begin(), kQuiet);
  queue_->submit(
      std::move(what),
      [this, storage, job = std::move(job)]() -> Result<std::string> {
        auto c = client(storage);
        if (!c) return c.error();
        return job(**c);
      },
      kOrigin, std::move(reply));
}

void StorageRunner::tell(std::string text) {
  events_.post(StatusMessage{sanitize_text(text), false, kOrigin});
}

Result<azure::BlobClient*> StorageRunner::client(const std::string& storage) {
  auto& slot = clients_[storage];
  if (slot) return slot.get();
  auto account = find_storage_account(settings_, storage);
  if (!account) return account.error();
  auto opened = open_blob_client(*account, clock_);
  if (!opened) return opened.error();
  slot = std::move(*opened);
  return slot.get();
}

}  // namespace trainyard
