// User actions on a Batch account, run off the UI thread: each is a function given the
// account's client and a store connection of the worker's own; its outcome comes back as a
// status message, so the UI never waits on the network.
#pragma once

#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>

#include "azure/batch_client.hpp"
#include "core/event_queue.hpp"
#include "core/result.hpp"
#include "core/work_queue.hpp"
#include "store/store.hpp"
#include "sync/batch_poller.hpp"

namespace trainyard {

/// One action: does the change (and refreshes what it changed into the store); returns the
/// status-bar text of its success.
using BatchCommand = std::function<Result<std::string>(azure::BatchClient&, Store&)>;

/// What the UI thread does with an action's outcome (a form shows its error, a read fills a form).
using BatchReply = std::function<void(const Result<std::string>&)>;

/// The action in flight whose request has gone unanswered since `since`.
struct CommandWait {
  std::string what;  ///< `terminate job train`
  std::chrono::steady_clock::time_point since;
  std::string endpoint;
};

/// A worker thread running one account's actions in order.
class CommandRunner {
 public:
  /// `on_done(message, is_error)` is called from the worker after each action.
  CommandRunner(std::string data_dir, BatchClientFactory make_client,
                std::function<void(StatusMessage)> on_done);
  /// Finishes the action in flight, drops the queued ones and joins.
  ~CommandRunner();
  CommandRunner(const CommandRunner&) = delete;
  CommandRunner& operator=(const CommandRunner&) = delete;

  /// Queues an action; `what` names it in a failure (`resize pool gpu`); `origin` is passed on
  /// in its StatusMessage (where the user asked for it). `reply`, when given, later runs on the
  /// UI thread with the outcome, from run_replies().
  void submit(std::string what, BatchCommand command, std::string origin = "",
              BatchReply reply = {});
  /// Actions queued or running.
  size_t pending() const;
  /// The action running now while a request of it waits for an answer; none otherwise. Safe from
  /// any thread: the status line says when an action is stuck on an endpoint that stopped.
  std::optional<CommandWait> waiting() const;
  /// Runs the replies of finished actions (UI thread only); returns how many ran.
  size_t run_replies();
  /// Waits until every queued action has finished, then runs the replies (headless use).
  void settle();

 private:
  Result<std::string> execute(const BatchCommand& command);
  void set_running(const std::string& what);

  std::string data_dir_;
  BatchClientFactory make_client_;
  // The worker thread's own: opened on first use, in that thread.
  std::unique_ptr<Store> store_;
  std::unique_ptr<azure::BatchClient> client_;
  mutable std::mutex mu_;                            // guards the two below (set by the worker)
  std::string running_;                              // the action in flight; empty: none
  const azure::BatchClient* client_seen_ = nullptr;  // client_, once made
  WorkQueue queue_;  // last: its thread stops before the client and store go
};

}  // namespace trainyard
