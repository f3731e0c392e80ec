// An httplib server on 127.0.0.1 answering with the routes a test gives, and a BatchClient for
// it (account "a", a dummy SharedKey, retries 1 ms apart): for answers the emulator never gives.
#pragma once

#include <httplib.h>

#include <chrono>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "azure/batch_client.hpp"

namespace trainyard::azuretest {

class LoopbackBatchServer {
 public:
  /// Starts the server once `routes` has added its handlers to it.
  explicit LoopbackBatchServer(const std::function<void(httplib::Server&)>& routes) {
    routes(server_);
    server_.set_keep_alive_max_count(1);  // no idle connection for stop() to wait on
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 500 && !server_.is_running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
    azure::BatchClientOptions o;
    o.account = "a";
    o.endpoint = endpoint();
    o.retry.base = std::chrono::milliseconds(1);
    client =
        std::make_unique<azure::BatchClient>(o, std::make_shared<azure::HttpClient>(),
                                             azure::shared_key_credential("a", "a2V5"), clock_);
  }
  ~LoopbackBatchServer() {
    server_.stop();
    thread_.join();
  }
  LoopbackBatchServer(const LoopbackBatchServer&) = delete;
  LoopbackBatchServer& operator=(const LoopbackBatchServer&) = delete;

  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }

 private:
  SystemClock clock_;  // first: the client reads it until it is gone
  httplib::Server server_;
  std::thread thread_;
  int port_ = 0;

 public:
  std::unique_ptr<azure::BatchClient> client;
};

}  // namespace trainyard::azuretest
