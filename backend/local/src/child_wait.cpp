#include "local/child_wait.hpp"

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

std::vector<char*> exec_argv(const std::vector<std::string>& words) {
  std::vector<char*> out;
  // execvp takes char* const[] for C's sake; it does not write through them.
  for (const auto& w : words) out.push_back(const_cast<char*>(w.c_str()));
  out.push_back(nullptr);
  return out;
}

}  // namespace trainyard
