// A loopback TCP proxy that counts the connections it accepts: put in front of the emulator, it
// tells how many connections one command opened.
#pragma once

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

namespace trainyard::clitest {

/// Listens on 127.0.0.1 (any free port) and relays each accepted connection to 127.0.0.1:`target`.
class CountingProxy {
 public:
  explicit CountingProxy(int target) : target_(target) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr = loopback(0);
    socklen_t len = sizeof addr;
    auto* sa = reinterpret_cast<sockaddr*>(&addr);
    if (listener_ < 0 || ::bind(listener_, sa, len) != 0 || ::listen(listener_, 16) != 0 ||
        ::getsockname(listener_, sa, &len) != 0)
      throw std::runtime_error("proxy: cannot listen");
    port_ = ntohs(addr.sin_port);
    acceptor_ = std::thread([this] { accept_loop(); });
  }
  ~CountingProxy() {
    stopping_ = true;
    acceptor_.join();
    std::lock_guard lock(mu_);
    for (auto& t : relays_) t.join();
    ::close(listener_);
  }
  CountingProxy(const CountingProxy&) = delete;
  CountingProxy& operator=(const CountingProxy&) = delete;

  int port() const { return port_; }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }
  /// Connections accepted so far.
  int accepted() const { return accepted_.load(); }

 private:
  static sockaddr_in loopback(int port) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    return addr;
  }

  void accept_loop() {
    while (!stopping_) {
      pollfd p{listener_, POLLIN, 0};
      if (::poll(&p, 1, 50) <= 0) continue;
      int client = ::accept4(listener_, nullptr, nullptr, SOCK_CLOEXEC);
      if (client < 0) continue;
      ++accepted_;
      std::lock_guard lock(mu_);
      relays_.emplace_back([this, client] { relay(client); });
    }
  }

  // Copies bytes both ways until either side closes (or the proxy stops).
  void relay(int client) {
    int server = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    sockaddr_in addr = loopback(target_);
    if (server >= 0 && ::connect(server, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0) {
      pollfd fds[2] = {{client, POLLIN, 0}, {server, POLLIN, 0}};
      char buf[1 << 16];
      while (!stopping_) {
        if (::poll(fds, 2, 50) <= 0) continue;
        if (!pass(fds[0], server, buf, sizeof buf) || !pass(fds[1], client, buf, sizeof buf)) break;
      }
    }
    if (server >= 0) ::close(server);
    ::close(client);
  }

  // Moves what `from` has to `to`; false once `from` is closed or failed.
  static bool pass(const pollfd& from, int to, char* buf, size_t size) {
    if (!(from.revents & (POLLIN | POLLHUP | POLLERR))) return true;
    auto n = ::read(from.fd, buf, size);
    if (n <= 0) return false;
    for (ssize_t done = 0; done < n;) {
      auto w = ::write(to, buf + done, static_cast<size_t>(n - done));
      if (w <= 0) return false;
      done += w;
    }
    return true;
  }

  int target_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stopping_{false};
  std::atomic<int> accepted_{0};
  std::mutex mu_;
  std::vector<std::thread> relays_;
  std::thread acceptor_;
};

}  // namespace trainyard::clitest
