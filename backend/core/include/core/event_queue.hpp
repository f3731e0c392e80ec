// Thread-safe event queue whose eventfd wakes the UI loop's poll().
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <optional>
#include <string>
#include <variant>
#include <vector>

namespace trainyard {

/// A worker has a message for the status bar.
struct StatusMessage {
  std::string text;
  bool is_error = false;
  std::string origin;  ///< who asked for what it reports (the status bar names it); may be empty
};
/// Something the UI must redraw for (log data, GPU samples).
struct Wake {};

/// The TUI's reader has a model ready for the request of `generation`.
struct PageReady {
  uint64_t generation = 0;
};

/// A Batch account's poller wrote these sync scopes (`jobs`, `pools`, `tasks/<job>`,
/// `nodes/<pool>`) to the store: only a pane showing one of them re-reads.
struct StoreWritten {
  std::string account;
  std::vector<std::string> scopes;
};

/// Everything a worker may tell the UI thread.
using Event = std::variant<StatusMessage, Wake, PageReady, StoreWritten>;

/// Many producers, one consumer; bounded so a lagging UI cannot grow it without end.
class EventQueue {
 public:
  explicit EventQueue(size_t capacity = 4096);
  ~EventQueue();
  EventQueue(const EventQueue&) = delete;
  EventQueue& operator=(const EventQueue&) = delete;

  /// Adds an event and wakes the consumer; the oldest event is dropped when full.
  void post(Event e);
  /// Takes every queued event and clears the wake-up fd.
  std::vector<Event> drain();
  /// The fd that becomes readable when events are queued (for poll()).
  int fd() const { return fd_; }

 private:
  std::mutex mu_;
  std::deque<Event> events_;
  size_t capacity_;
  int fd_ = -1;
};

}  // namespace trainyard
