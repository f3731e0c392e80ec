// Internal: the completed tasks whose logs a poller still has to read to their end, for the jobs
// the user follows (the one on screen, pinned ones, those with a file followed).
#pragma once

#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// Oldest first, each task once. A job's earlier completed tasks are queued when it is first
/// followed; after that, the ones the state history shows completing (from the queue's first
/// use). The history is read on only while fewer than a batch are queued, so the queue stays
/// short however large the job.
class CompletedLogQueue {
 public:
  /// Queues what completed in `jobs` since the last call (and the earlier unread tasks of a job
  /// followed for the first time).
  Result<void> refill(Store& store, const std::string& account, const std::set<std::string>& jobs);
  /// The next (job, task) to read; none when the queue is empty.
  std::optional<std::pair<std::string, std::string>> pop();

 private:
  static constexpr int64_t kBatch = 256;
  void push(const std::string& job, const std::string& task);

  std::deque<std::pair<std::string, std::string>> queued_;  // job, task
  std::set<std::string> keys_;                              // job/task of each queued
  std::set<std::string> jobs_listed_;                       // followed jobs listed once
  int64_t history_seen_ = -1;  // the last state history row looked at; -1: none yet
};

}  // namespace trainyard
