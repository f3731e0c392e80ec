#include "core/event_queue.hpp"

#include <sys/eventfd.h>
#include <unistd.h>

#include <cstdint>

namespace trainyard {

EventQueue::EventQueue(size_t capacity)
    : capacity_(capacity), fd_(eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) {}

EventQueue::~EventQueue() {
  if (fd_ >= 0) close(fd_);
}

void EventQueue::post(Event e) {
  {
    std::lock_guard lock(mu_);
    if (events_.size() >= capacity_) events_.pop_front();
    events_.push_back(std::move(e));
  }
  uint64_t one = 1;
  [[maybe_unused]] auto n = write(fd_, &one, sizeof one);
}

std::vector<Event> EventQueue::drain() {
  uint64_t count = 0;
  [[maybe_unused]] auto n = read(fd_, &count, sizeof count);
  std::lock_guard lock(mu_);
  std::vector<Event> out(std::make_move_iterator(events_.begin()),
                         std::make_move_iterator(events_.end()));
  events_.clear();
  return out;
}

}  // namespace trainyard
