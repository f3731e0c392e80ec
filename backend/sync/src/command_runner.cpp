#include "sync/command_runner.hpp"

#include <exception>

namespace trainyard {

CommandRunner::CommandRunner(std::string data_dir, BatchClientFactory make_client,
                             std::function<void(StatusMessage)> on_done)
    : data_dir_(std::move(data_dir)),
      make_client_(std::move(make_client)),
      on_done_(std::move(on_done)),
      thread_([this] { run(); }) {}

CommandRunner::~CommandRunner() {
  {
    std::lock_guard<std::mutex> g(mu_);
    stopping_ = true;
    queue_.clear();
  }
  cv_.notify_all();
  idle_.notify_all();
  thread_.join();
}

void CommandRunner::submit(std::string what, BatchCommand command, std::string origin,
                           BatchReply reply) {
  {
    std::lock_guard<std::mutex> g(mu_);
    queue_.push_back({std::move(what), std::move(origin), std::move(command), std::move(reply)});
  }
  cv_.notify_all();
}

size_t CommandRunner::run_replies() {
  std::vector<std::pair<BatchReply, Result<std::string>>> ready;
  {
    std::lock_guard<std::mutex> g(mu_);
    ready.swap(done_);
  }
  // Outside the lock: a reply may queue another action.
  for (auto& [reply, outcome] : ready) reply(outcome);
  return ready.size();
}

void CommandRunner::settle() {
  {
    std::unique_lock<std::mutex> g(mu_);
    idle_.wait(g, [&] { return stopping_ || (queue_.empty() && running_ == 0); });
  }
  run_replies();
}

size_t CommandRunner::pending() const {
  std::lock_guard<std::mutex> g(mu_);
  return queue_.size() + running_;
}

// The client and the store connection are opened on first use, in this thread (a key command
// may take a while), and kept.
Result<std::string> CommandRunner::execute(const BatchCommand& command) {
  if (!store_) {
    auto s = Store::open(data_dir_ + "/cache.db");
    if (!s) return s.error();
    store_ = std::move(*s);
  }
  if (!client_) {
    auto c = make_client_();
    if (!c) return c.error();
    client_ = std::move(*c);
  }
  // No exception may cross into the UI thread, nor end this one.
  try {
    return command(*client_, *store_);
  } catch (const std::exception& e) {
    return make_error(ErrorKind::Internal, e.what());
  }
}

void CommandRunner::run() {
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
    auto r = execute(next.command);
    {
      std::lock_guard<std::mutex> g(mu_);
      if (next.reply) done_.emplace_back(std::move(next.reply), r);
      --running_;
    }
    idle_.notify_all();
    // The status message also wakes the UI loop, which then runs the replies.
    if (on_done_)
      on_done_(r ? StatusMessage{*r, false, next.origin}
                 : StatusMessage{next.what + ": " + r.error().message, true, next.origin});
  }
}

}  // namespace trainyard
