// Internal: the TUI's local-engine thread. Scheduling passes (every 2 s, and when asked) and the
// user's local actions (submit, stop, remove) take the store's write lock, which another process
// may hold for seconds; they run here, on a store connection of this thread's own, so a key press
// never waits for that lock. Outcomes come back to the UI thread as replies.
#pragma once

#include <chrono>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include "core/event_queue.hpp"
#include "local/engine.hpp"
#include "store/store.hpp"

namespace trainyard {

/// A worker thread owning a LocalEngine on its own store connection.
class LocalWorker {
 public:
  /// Work for the engine; the text is the status-bar message of its success.
  using Action = std::function<Result<std::string>(LocalEngine&)>;
  /// What the UI thread does with an action's outcome.
  using Reply = std::function<void(const Result<std::string>&)>;

  /// Starts the thread; its first scheduling pass runs at once. `post` wakes the UI loop (called
  /// from the worker); `config.gpu_probe`, when set, is rebuilt on the worker's connection.
  LocalWorker(std::string data_dir, EngineConfig config, const Clock& clock,
              std::function<void(Event)> post);
  /// Finishes what is in flight, drops queued actions and joins.
  ~LocalWorker();
  LocalWorker(const LocalWorker&) = delete;
  LocalWorker& operator=(const LocalWorker&) = delete;

  /// Queues an action; `reply` later runs on the UI thread, from run_replies().
  void submit(Action action, Reply reply);
  /// Queues a read of this thread's store connection (the UI thread reads none); `reply` as
  /// for submit.
  void submit_read(std::function<Result<std::string>(Store&)> read, Reply reply);
  /// Asks for a scheduling pass now.
  void poke();
  /// Runs the replies of finished actions (UI thread only); returns how many ran.
  size_t run_replies();
  /// Waits until every queued action and asked-for pass has finished (the first pass included),
  /// then runs the replies (headless use).
  void settle();

 private:
  struct Job {
    Action action;
    Reply reply;
  };
  void run();
  bool next_job(Job& job);
  void execute(Job& job);
  void schedule_pass();
  Result<void> open_engine();

  std::string data_dir_;
  EngineConfig config_;
  const Clock& clock_;
  std::function<void(Event)> post_;
  std::unique_ptr<Store> store_;  // worker thread only, as are the next two
  std::unique_ptr<LocalEngine> engine_;
  std::string last_error_;  // the pass's last failure, reported once

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<Job> queue_;
  std::vector<std::pair<Reply, Result<std::string>>> done_;
  size_t running_ = 0;
  bool poked_ = true;     // a pass is asked for; the first one is
  bool passing_ = false;  // a pass is under way
  bool stopping_ = false;
  std::chrono::steady_clock::time_point next_pass_{};
  std::thread thread_;
};

}  // namespace trainyard
