// Jobs run in order on a thread of their own, off the UI thread: each job's outcome is told from
// that thread as soon as it is known, and its reply, if any, runs later on the UI thread.
#pragma once

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace trainyard {

/// A thread that runs queued jobs one after the other.
class WorkQueue {
 public:
  /// One job; its success is a text for the status line (may be empty).
  using Job = std::function<Result<std::string>()>;
  /// What the UI thread does with a job's outcome.
  using Reply = std::function<void(const Result<std::string>&)>;
  /// Told, from the queue's thread, each job's name, origin and outcome once it has run.
  using Done = std::function<void(const std::string& what, const std::string& origin,
                                  const Result<std::string>& outcome)>;

  explicit WorkQueue(Done on_done);
  /// Finishes the job in flight, drops the queued ones and joins.
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  /// Queues `job`; `what` names it in a failure, `origin` is passed on to `on_done`. `reply`,
  /// when given, later runs on the UI thread with the outcome, from run_replies().
  void submit(std::string what, Job job, std::string origin = "", Reply reply = {});
  /// Jobs queued or running.
  size_t pending() const;
  /// Runs the replies of finished jobs (UI thread only); returns how many ran.
  size_t run_replies();
  /// Waits until every queued job has finished, then runs the replies (headless use).
  void settle();

 private:
  struct Queued {
    std::string what, origin;
    Job job;
    Reply reply;
  };
  void run();

  Done on_done_;
  mutable std::mutex mu_;
  std::condition_variable cv_;
  std::condition_variable idle_;
  std::deque<Queued> queue_;
  std::vector<std::pair<Reply, Result<std::string>>> done_;
  size_t running_ = 0;
  bool stopping_ = false;
  std::thread thread_;  // last: it starts once everything above is built
};

}  // namespace trainyard
