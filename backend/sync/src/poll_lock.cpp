#include "sync/poll_lock.hpp"

#include <fcntl.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cctype>
#include <cstdlib>
#include <string>

namespace trainyard {

namespace {

// Account names come from the user's config: keep the file name to a safe alphabet.
std::string file_safe(const std::string& name) {
  std::string out;
  for (char c : name) out += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
  return out;
}

}  // namespace

PollLock::PollLock(std::string dir, const std::string& account)
    : dir_(std::move(dir)), path_(dir_ + "/poll-" + file_safe(account) + ".lock") {}

PollLock::~PollLock() {
  release();
}

bool PollLock::try_acquire() {
  if (fd_ >= 0) return true;
  ::mkdir(dir_.c_str(), 0700);
  int fd = ::open(path_.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  if (fd < 0) return false;
  if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
    ::close(fd);
    return false;
  }
  // The pid is only for messages ("polled by pid N"); the lock itself is the flock.
  auto pid = std::to_string(::getpid()) + "\n";
  if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
    // Not fatal: the lock holds, the message will just lack the pid.
  }
  fd_ = fd;
  return true;
}

void PollLock::release() {
  if (fd_ < 0) return;
  ::close(fd_);  // closing the last descriptor drops the flock
  fd_ = -1;
}

int64_t PollLock::holder_pid() const {
  int fd = ::open(path_.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return 0;
  char buf[32] = {};
  auto n = ::pread(fd, buf, sizeof buf - 1, 0);
  ::close(fd);
  return n > 0 ? std::strtoll(buf, nullptr, 10) : 0;
}

}  // namespace trainyard
