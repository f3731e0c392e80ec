// Which trainyard process polls an account: the one holding its lock file. Two windows on one
// data directory then cost the service one poller, and the lock goes with a process that dies.
#pragma once

#include <cstdint>
#include <string>

namespace trainyard {

/// An advisory lock (flock) on `<dir>/poll-<account>.lock`, holding this process's pid.
class PollLock {
 public:
  PollLock(std::string dir, const std::string& account);
  ~PollLock();
  PollLock(const PollLock&) = delete;
  PollLock& operator=(const PollLock&) = delete;

  /// Takes the lock if it is free (never waits); true while this object holds it.
  bool try_acquire();
  /// Gives the lock up.
  void release();
  bool held() const { return fd_ >= 0; }
  /// The pid written by the holder, 0 when unknown.
  int64_t holder_pid() const;

 private:
  std::string dir_, path_;
  int fd_ = -1;
};

}  // namespace trainyard
