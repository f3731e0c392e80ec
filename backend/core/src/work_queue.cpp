#include "core/work_queue.hpp"

#include <exception>

namespace trainyard {

WorkQueue::WorkQueue(Done on_done) : on_done_(std::move(on_done)), thread_([this] { run(); }) {}

WorkQueue::~WorkQueue() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  idle_.notify_all();
  thread_.join();
}

void WorkQueue::submit(std::string what, Job job, std::string origin, Reply reply) {
  {
    std::lock_guard<std::mutex> g(mu_);
    queue_.push_back({std::move(what), std::move(origin), std::move(job), std::move(reply)});
  }
  cv_.notify_all();
}

size_t WorkQueue::run_replies() {
  std::vector<std::pair<Reply, Result<std::string>>> ready;
  {
    std::lock_guard<std::mutex> g(mu_);
    ready.swap(done_);
  }
  // Outside the lock: a reply may queue another job.
  for (auto& [reply, outcome] : ready) reply(outcome);
  return ready.size();
}

void WorkQueue::settle() {
  {
    std::unique_lock<std::mutex> g(mu_);
    idle_.wait(g, [&] { return stopping_ || (queue_.empty() && running_ == 0); });
  }
  run_replies();
}

size_t WorkQueue::pending() const {
  std::lock_guard<std::mutex> g(mu_);
  return queue_.size() + running_;
}

void WorkQueue::run() {
  for (;;) {
    Queued next;
    {
      std::unique_lock<std::mutex> g(mu_);
      cv_.wait(g, [&] { return stopping_ || !queue_.empty(); });
      if (stopping_) return;
      next = std::move(queue_.front());
      queue_.pop_front();
      ++running_;
    }
    Result<std::string> r = std::string();
    // No exception may cross into the UI thread, nor end this one.
    try {
      r = next.job();
    } catch (const std::exception& e) {
      r = make_error(ErrorKind::Internal, e.what());
    }
    if (next.reply) {
      std::lock_guard<std::mutex> g(mu_);
      done_.emplace_back(std::move(next.reply), r);
    }
    // The outcome's news also wakes the UI loop, which then runs the replies (queued above). The
    // job counts as running until it is told, so that settle() returns with the news sent.
    if (on_done_) on_done_(next.what, next.origin, r);
    {
      std::lock_guard<std::mutex> g(mu_);
      --running_;
    }
    idle_.notify_all();
  }
}

}  // namespace trainyard
