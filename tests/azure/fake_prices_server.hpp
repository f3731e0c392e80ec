// A loopback stand-in for the Azure Retail Prices API, serving tests/fixtures/prices: page 1 at
// `$skip` 0, page 2 at 7, page 3 at 15, their NextPageLinks pointed at this server. A filter
// naming a region, or another size, gets one page of the matching rows from all three.
#pragma once

#include <httplib.h>

#include <atomic>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

namespace trainyard::testing_prices {

/// The text of tests/fixtures/prices/`name`.
inline std::string price_fixture(const std::string& name) {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/fixtures/prices/" + name, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

class FakePrices {
 public:
  FakePrices() {
    server_.Get("/api/retail/prices",
                [this](const httplib::Request& q, httplib::Response& r) { answer(q, r); });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 5000 && !server_.is_running(); ++i)
      std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  ~FakePrices() { stop(); }
  FakePrices(const FakePrices&) = delete;
  FakePrices& operator=(const FakePrices&) = delete;

  /// Stops answering (later requests are refused).
  void stop() {
    server_.stop();
    if (thread_.joinable()) thread_.join();
  }
  std::string endpoint() const { return "http://127.0.0.1:" + std::to_string(port_); }
  /// Requests answered so far.
  int requests() const { return requests_.load(); }
  /// The `$filter` of every request, in order.
  std::vector<std::string> filters() const {
    std::lock_guard<std::mutex> lock(mutex_);
    return filters_;
  }
  /// The next `n` requests get 503.
  void fail_next(int n) { failures_ = n; }
  /// Page 1's NextPageLink goes to `origin` instead of this server.
  void send_next_to(const std::string& origin) {
    std::lock_guard<std::mutex> lock(mutex_);
    next_origin_ = origin;
  }

 private:
  void answer(const httplib::Request& q, httplib::Response& r) {
    ++requests_;
    std::string filter = q.get_param_value("$filter");
    {
      std::lock_guard<std::mutex> lock(mutex_);
      filters_.push_back(filter);
    }
    if (failures_ > 0) {
      --failures_;
      r.status = 503;
      r.set_content("busy", "text/plain");
      return;
    }
    if (q.get_param_value("api-version") != "2023-01-01-preview") {
      r.status = 400;
      r.set_content(R"({"Error":{"Code":"BadRequest"}})", "application/json");
      return;
    }
    auto region = quoted_after(filter, "armRegionName eq '");
    auto size = quoted_after(filter, "armSkuName eq '");
    r.set_content(region.empty() && size == kFixtureSize ? page(q.get_param_value("$skip"))
                                                         : matching(size, region),
                  "application/json");
  }

  static constexpr const char* kFixtureSize = "Standard_NC4as_T4_v3";

  // The value `marker` (`armRegionName eq '`) gives in a filter, or "".
  static std::string quoted_after(const std::string& filter, const std::string& marker) {
    auto at = filter.find(marker);
    if (at == std::string::npos) return "";
    at += marker.size();
    return filter.substr(at, filter.find('\'', at) - at);
  }

  std::string page(const std::string& skip) {
    std::string name = skip == "15" ? "page3.json" : skip == "7" ? "page2.json" : "page1.json";
    std::string text = price_fixture(name);
    std::lock_guard<std::mutex> lock(mutex_);
    std::string origin = name == "page1.json" && !next_origin_.empty() ? next_origin_ : endpoint();
    const std::string real = "https://prices.azure.com:443";
    for (auto at = text.find(real); at != std::string::npos; at = text.find(real, at))
      text.replace(at, real.size(), origin);
    return text;
  }

  // One page of the rows of every page for `size` in `region` (any region when empty).
  static std::string matching(const std::string& size, const std::string& region) {
    auto out = nlohmann::json::parse(price_fixture("page1.json"));
    out["Items"] = nlohmann::json::array();
    for (const char* name : {"page1.json", "page2.json", "page3.json"}) {
      auto page = nlohmann::json::parse(price_fixture(name));
      for (const auto& item : page["Items"])
        if (item["armSkuName"] == size && (region.empty() || item["armRegionName"] == region))
          out["Items"].push_back(item);
    }
    out["Count"] = out["Items"].size();
    out["NextPageLink"] = nullptr;
    return out.dump();
  }

  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::atomic<int> requests_{0};
  std::atomic<int> failures_{0};
  mutable std::mutex mutex_;
  std::vector<std::string> filters_;
  std::string next_origin_;
};

}  // namespace trainyard::testing_prices
