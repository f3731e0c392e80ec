#include "completed_log_queue.hpp"

namespace trainyard {

void CompletedLogQueue::push(const std::string& job, const std::string& task) {
  if (keys_.insert(job + "/" + task).second) queued_.emplace_back(job, task);
}

std::optional<std::pair<std::string, std::string>> CompletedLogQueue::pop() {
  if (queued_.empty()) return std::nullopt;
  auto next = std::move(queued_.front());
  queued_.pop_front();
  keys_.erase(next.first + "/" + next.second);
  return next;
}

Result<void> CompletedLogQueue::refill(Store& store, const std::string& account,
                                       const std::set<std::string>& jobs) {
  for (const auto& job : jobs) {
    if (!jobs_listed_.insert(job).second) continue;
    auto earlier = store.tasks_with_unread_logs(account, job, kBatch);
    if (!earlier) return earlier.error();
    for (const auto& u : *earlier)
      if (u.completed) push(job, u.task);
  }
  if (history_seen_ < 0) {
    auto last = store.last_state_change_id();
    if (!last) return last.error();
    history_seen_ = *last;
  }
  while (queued_.size() < static_cast<size_t>(kBatch)) {
    auto rows = store.tasks_completed_since(account, history_seen_, kBatch);
    if (!rows) return rows.error();
    for (const auto& r : *rows) {
      history_seen_ = r.history_id;
      if (jobs.count(r.job)) push(r.job, r.task);
    }
    if (rows->size() < static_cast<size_t>(kBatch)) break;
  }
  return ok_result();
}

}  // namespace trainyard
