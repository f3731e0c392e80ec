// libFuzzer: the emulator's request handling. Each input is one request (a first line
// `METHOD TARGET`, `name: value` header lines, an empty line, the body); the harness signs it
// with the account key, as a client would, so the input reaches the routes and handlers rather
// than stopping at authentication, and sends it to an emulator service on loopback.
//
// The simulation never ticks, so no pool gets nodes and no task command runs. The emulator
// answers 500 only for a fault it was told to inject (none here) or for an exception a handler
// let escape, which the server turns into a 500: that is a finding.
#include <httplib.h>

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "service.hpp"

using namespace trainyard;

namespace {

constexpr const char* kKey = "ZnV6ei1rZXktZm9yLXRoZS1lbXVsYXRvci1oYXJuZXNzLW9ubHk=";

struct Harness {
  emu::Service service{
      emu::EmulatorOptions{.account = "fuzz", .key_base64 = kKey, .identity = true}, nullptr};
  httplib::Server server;
  std::thread thread;
  std::string base;
  azure::HttpClient http;
  std::unique_ptr<azure::Credential> key = azure::shared_key_credential("fuzz", kKey);

  Harness() {
    service.install(server);
    server.set_tcp_nodelay(true);
    server.set_keep_alive_max_count(1 << 30);
    const int port = server.bind_to_any_port("127.0.0.1");
    if (port <= 0) std::abort();
    base = "http://127.0.0.1:" + std::to_string(port);
    service.set_base_url(base);
    thread = std::thread([this] { server.listen_after_bind(); });
    while (!server.is_running()) std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~Harness() {
    server.stop();
    thread.join();
  }
};

Harness& harness() {
  static Harness h;
  return h;
}

azure::HttpRequest request_of(const std::string& text, const std::string& base) {
  std::istringstream in(text);
  azure::HttpRequest req;
  std::string first;
  std::getline(in, first);
  auto space = first.find(' ');
  req.method = first.substr(0, space);
  req.url = base + (space == std::string::npos ? "/" : first.substr(space + 1));
  for (std::string line; std::getline(in, line) && !line.empty();) {
    auto colon = line.find(':');
    if (colon == std::string::npos) continue;
    auto value = line.substr(colon + 1);
    if (!value.empty() && value[0] == ' ') value.erase(0, 1);
    req.headers.emplace_back(line.substr(0, colon), value);
  }
  std::ostringstream rest;
  rest << in.rdbuf();
  req.body = rest.str();
  req.timeout = std::chrono::seconds(5);
  return req;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  Harness& h = harness();
  auto req = request_of(std::string(reinterpret_cast<const char*>(data), size), h.base);
  if (req.method.empty() || req.method.find_first_of(" \r\n\t") != std::string::npos) return 0;
  if (!h.key->authorize(req, SystemClock{}.now())) return 0;
  auto res = h.http.send(req);
  if (res && res->status == 500) {
    std::fprintf(stderr, "emulator answered 500 to %s %s: %s\n", req.method.c_str(),
                 req.url.c_str(), res->body.c_str());
    std::abort();
  }
  return 0;
}
