#include "sync/command_runner.hpp"

#include "core/sanitizer.hpp"

namespace trainyard {

CommandRunner::CommandRunner(std::string data_dir, BatchClientFactory make_client,
                             std::function<void(StatusMessage)> on_done)
    : data_dir_(std::move(data_dir)),
      make_client_(std::move(make_client)),
      queue_([on_done = std::move(on_done)](const std::string& what, const std::string& origin,
                                            const Result<std::string>& r) {
        if (!on_done) return;
        // A server's message (and an id in an outcome) is outside text: the status line gets it
        // sanitized, whichever action it came from.
        on_done(r ? StatusMessage{sanitize_text(*r), false, origin}
                  : StatusMessage{sanitize_text(what + ": " + r.error().message), true, origin});
      }) {}

CommandRunner::~CommandRunner() = default;

void CommandRunner::submit(std::string what, BatchCommand command, std::string origin,
                           BatchReply reply) {
  auto run = [this, what, command = std::move(command)] {
    set_running(what);
    auto r = execute(command);
    set_running("");
    return r;
  };
  queue_.submit(std::move(what), std::move(run), std::move(origin), std::move(reply));
}

void CommandRunner::set_running(const std::string& what) {
  std::lock_guard<std::mutex> g(mu_);
  running_ = what;
}

std::optional<CommandWait> CommandRunner::waiting() const {
  std::lock_guard<std::mutex> g(mu_);
  if (running_.empty() || !client_seen_) return std::nullopt;
  auto since = client_seen_->in_flight_since();
  if (!since) return std::nullopt;
  return CommandWait{running_, *since, client_seen_->options().endpoint};
}

size_t CommandRunner::pending() const {
  return queue_.pending();
}

size_t CommandRunner::run_replies() {
  return queue_.run_replies();
}

void CommandRunner::settle() {
  queue_.settle();
}

// The client and the store connection are opened on first use, in the queue's thread (a key
// command may take a while), and kept.
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
    std::lock_guard<std::mutex> g(mu_);
    client_seen_ = client_.get();
  }
  return command(*client_, *store_);
}

}  // namespace trainyard
