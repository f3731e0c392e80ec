#include "child_wait.hpp"

#include <poll.h>
#include <sys/wait.h>

#include <cerrno>

namespace trainyard {

bool reaped_by(pid_t pid, std::chrono::steady_clock::time_point limit, int& status) {
  while (true) {
    pid_t got = ::waitpid(pid, &status, WNOHANG);
    if (got == pid || (got < 0 && errno != EINTR)) return true;
    if (std::chrono::steady_clock::now() >= limit) return false;
    ::poll(nullptr, 0, 20);
  }
}

}  // namespace trainyard
