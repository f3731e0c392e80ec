#include "stop_signals.hpp"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <cerrno>

namespace trainyard {
namespace {

constexpr std::array<int, 3> kStopSignals = {SIGTERM, SIGHUP, SIGINT};

volatile sig_atomic_t g_received = 0;
int g_write_fd = -1;
std::array<struct sigaction, kStopSignals.size()> g_previous{};

// Async-signal-safe: a store and a write.
void on_stop_signal(int sig) {
  const int saved = errno;
  g_received = sig;
  if (g_write_fd >= 0) {
    const char byte = 1;
    (void)!::write(g_write_fd, &byte, 1);
  }
  errno = saved;
}

}  // namespace

StopSignals::StopSignals() {
  int fds[2];
  if (::pipe2(fds, O_CLOEXEC | O_NONBLOCK) == 0) {
    read_fd_ = fds[0];
    g_write_fd = fds[1];
  }
  g_received = 0;
  struct sigaction sa {};
  sa.sa_handler = on_stop_signal;
  sigemptyset(&sa.sa_mask);
  sa.sa_flags = SA_RESETHAND;  // the second one is not caught
  for (size_t i = 0; i < kStopSignals.size(); ++i)
    ::sigaction(kStopSignals[i], &sa, &g_previous[i]);
}

StopSignals::~StopSignals() {
  for (size_t i = 0; i < kStopSignals.size(); ++i)
    ::sigaction(kStopSignals[i], &g_previous[i], nullptr);
  if (g_write_fd >= 0) ::close(g_write_fd);
  if (read_fd_ >= 0) ::close(read_fd_);
  g_write_fd = -1;
}

int StopSignals::received() const {
  return g_received;
}

void StopSignals::reraise() const {
  const int sig = g_received;
  if (!sig) return;
  ::signal(sig, SIG_DFL);
  ::raise(sig);
}

}  // namespace trainyard
