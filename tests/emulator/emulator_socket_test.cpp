// The emulator's connections, seen from inside its process: every accepted socket has Nagle's
// algorithm off, and one connection keeps serving a client's requests.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <string>
#include <vector>

#include "emulator/emulator.hpp"

namespace trainyard::emu::emulator_socket_test {
namespace {

namespace fs = std::filesystem;

int local_port(int fd, bool peer = false) {
  sockaddr_in addr{};
  socklen_t len = sizeof addr;
  auto* sa = reinterpret_cast<sockaddr*>(&addr);
  if ((peer ? ::getpeername(fd, sa, &len) : ::getsockname(fd, sa, &len)) != 0) return -1;
  return addr.sin_family == AF_INET ? ntohs(addr.sin_port) : -1;
}

// A client connection to the emulator on 127.0.0.1.
class RawClient {
 public:
  explicit RawClient(int port) : fd_(::socket(AF_INET, SOCK_STREAM, 0)) {
    sockaddr_in addr{};
    addr.sin_family = AF_INET;
    addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    addr.sin_port = htons(static_cast<uint16_t>(port));
    connected_ = ::connect(fd_, reinterpret_cast<sockaddr*>(&addr), sizeof addr) == 0;
  }
  ~RawClient() { ::close(fd_); }
  RawClient(const RawClient&) = delete;
  RawClient& operator=(const RawClient&) = delete;

  bool connected() const { return connected_; }
  int port() const { return local_port(fd_); }

  // One unauthenticated GET (answered 403, with a body) on this connection; returns the
  // response's head, or empty when the connection was closed.
  std::string get() {
    const std::string req = "GET /pools?api-version=2025-06-01 HTTP/1.1\r\nHost: x\r\n\r\n";
    if (::write(fd_, req.data(), req.size()) != static_cast<ssize_t>(req.size())) return {};
    std::string got;
    char buf[4096];
    for (;;) {
      auto head_end = got.find("\r\n\r\n");
      if (head_end != std::string::npos && got.size() >= head_end + 4 + content_length(got))
        return got.substr(0, head_end);
      auto n = ::read(fd_, buf, sizeof buf);
      if (n <= 0) return {};
      got.append(buf, static_cast<size_t>(n));
    }
  }

 private:
  static size_t content_length(const std::string& head) {
    auto at = head.find("Content-Length: ");
    return at == std::string::npos ? 0 : std::strtoul(head.c_str() + at + 16, nullptr, 10);
  }

  int fd_;
  bool connected_ = false;
};

// The emulator's end of the connection whose client end has port `client_port`.
int accepted_socket(int server_port, int client_port) {
  for (const auto& e : fs::directory_iterator("/proc/self/fd")) {
    const int fd = std::atoi(e.path().filename().c_str());
    if (local_port(fd) == server_port && local_port(fd, true) == client_port) return fd;
  }
  return -1;
}

std::unique_ptr<Emulator> start() {
  EmulatorOptions o;
  o.key_base64 = generate_account_key();
  auto emu = Emulator::start(o);
  if (!emu) throw std::runtime_error(emu.error().message);
  return std::move(*emu);
}

TEST(EmulatorSockets, EveryAcceptedSocketHasNagleOff) {
  auto emu = start();
  std::vector<std::unique_ptr<RawClient>> clients;
  for (int i = 0; i < 3; ++i) {
    clients.push_back(std::make_unique<RawClient>(emu->port()));
    ASSERT_TRUE(clients.back()->connected());
    ASSERT_FALSE(clients.back()->get().empty());  // accepted and served
  }
  for (const auto& c : clients) {
    int fd = accepted_socket(emu->port(), c->port());
    ASSERT_GE(fd, 0) << "no accepted socket for client port " << c->port();
    int on = 0;
    socklen_t len = sizeof on;
    ASSERT_EQ(::getsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, &len), 0);
    EXPECT_NE(on, 0) << "TCP_NODELAY is off on the socket of client port " << c->port();
  }
}

TEST(EmulatorSockets, OneConnectionServesManyRequests) {
  auto emu = start();
  RawClient client(emu->port());
  ASSERT_TRUE(client.connected());
  // A `sync` of an account with a few pools and jobs sends dozens of requests.
  for (int i = 0; i < 50; ++i) {
    auto head = client.get();
    ASSERT_FALSE(head.empty()) << "the connection was closed after " << i << " requests";
    EXPECT_EQ(head.find("Connection: close"), std::string::npos) << "request " << i;
  }
}

}  // namespace
}  // namespace trainyard::emu::emulator_socket_test
