// Internal: the TUI's reader, a thread with its own store connection that loads the focused
// table pane's visible page into a model and hands it to the UI thread, which never queries.
#pragma once

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "alert_watch.hpp"
#include "app/context.hpp"
#include "core/event_queue.hpp"
#include "cost_watcher.hpp"
#include "tui_pane.hpp"
#include "tui_preemption.hpp"

namespace trainyard {

struct TuiState;

/// What the reader is asked to read: the focused frame and what its pane's load depends on.
struct ReadRequest {
  uint64_t generation = 0;
  Frame frame;                                          ///< pane, account, job, cursor and filter
  std::map<std::string, std::set<std::string>> pinned;  ///< pinned jobs by account
  int rows = 1;                                         ///< table rows that fit
  std::vector<std::string> watched;                     ///< accounts whose preemptions are told
  std::shared_ptr<const PaneData> input;                ///< the pane's read_input()
  std::shared_ptr<const CostSnapshot> costs;            ///< the costs on screen (Jobs pane)
  bool only_if_changed = false;  ///< read only when another connection committed since the last
};

/// When the data a Batch account's pane shows was confirmed, and its scope's last fetch error.
struct SyncFacts {
  std::optional<Timestamp> data_time;  ///< none: part of it was never listed
  std::string error;
};

/// What one read produced: everything the focused pane and its status line show of the store.
struct PageModel {
  uint64_t generation = 0;
  bool loaded = false;  ///< the pane's store reads were made (other panes read their own)
  bool table = false;   ///< a table pane's page was read
  TablePage page;
  std::shared_ptr<const PaneData> data;  ///< what the pane draws beyond a page
  std::string frame;                     ///< frame_key() of the frame read
  int64_t data_version = -1;             ///< the reader connection's, when it read
  TableCursor cursor;  ///< the request's cursor, kept within the rows and on screen
  SyncFacts sync;
  std::string preemption_news;  ///< nodes preempted and tasks requeued since the last read
  std::string error;            ///< why the read failed (nothing else is set then)
  std::vector<Alert> alerts;    ///< what the configured alerts saw since the last read
};

/// A worker thread that owns a second store connection on the same data directory. Requests
/// are coalesced: one not yet started is replaced by a newer one.
class TuiReader {
 public:
  /// A reader on `ctx`'s data directory; none when its connection cannot be opened. `post`
  /// tells the UI thread a model is ready (it must be safe to call from another thread).
  static std::unique_ptr<TuiReader> open(const AppContext& ctx, std::function<void(Event)> post);
  ~TuiReader();
  TuiReader(const TuiReader&) = delete;
  TuiReader& operator=(const TuiReader&) = delete;

  /// Watches these accounts' alerts from the next read on (none before).
  void watch_alerts(AlertConfig config);
  /// Asks for a read; only the latest request matters.
  void request(ReadRequest r);
  /// The newest model read since the last take; none when there is none.
  std::optional<PageModel> take();
  /// Waits for the model of `generation` or a newer one, and takes it; with a `limit`, none
  /// when it is not read by then.
  std::optional<PageModel> wait_for(uint64_t generation,
                                    std::optional<std::chrono::milliseconds> limit = {});

 private:
  TuiReader(std::unique_ptr<AppContext> ctx, std::function<void(Event)> post);
  void run();
  PageModel read(const ReadRequest& r);
  bool store_changed() const;  // since the last read
  std::vector<Alert> read_alerts(const std::map<std::string, std::string>& news, int64_t version);

  std::unique_ptr<AppContext> ctx_;    // the reader's own: its store is its connection
  std::unique_ptr<TuiState> scratch_;  // the frame and pane instances loads run on (their caches)
  int64_t data_version_ = -1;          // of the reader's connection at the last read
  std::function<void(Event)> post_;
  std::mutex mu_;
  std::condition_variable cv_;
  std::optional<ReadRequest> pending_;
  std::optional<PageModel> ready_;
  bool stopping_ = false;
  AlertConfig alert_config_;    // guarded by mu_
  AlertWatch alert_watch_;      // the reader thread's
  int64_t alert_version_ = -1;  // data_version at the last look for alerts
  std::thread thread_;          // last: it starts once everything above is built
};

/// Asks the reader for the focused pane's page and data. A headless TUI (no live loop) waits
/// for them, so every frame it draws is complete and deterministic; the live loop waits a
/// moment (a slow read is shown when its event comes).
void request_page(TuiState& st);
/// Asks the reader to read the page on screen again only when another connection (a
/// supervisor, the CLI, a poller) committed since its last read; waits for nothing.
void request_page_if_changed(TuiState& st);
/// Takes the reader's newest model and applies it; true when the screen changes.
bool apply_page(TuiState& st);
/// Shows `m` when it answers the latest request (its news in any case); true when the screen
/// changes.
bool apply_model(TuiState& st, PageModel m);

}  // namespace trainyard
