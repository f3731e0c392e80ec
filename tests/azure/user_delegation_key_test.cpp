// Get User Delegation Key: the request the Blob client sends (a POST to the service with the
// key's validity in XML, under the caller's Entra token) against a loopback stand-in, and the key
// it answers with signing a SAS.
#include <httplib.h>

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <mutex>
#include <sstream>
#include <string>
#include <thread>

#include "azure/blob_client.hpp"

namespace trainyard::azure::user_delegation_key_test {
namespace {

using namespace std::chrono_literals;

// What an Entra credential adds; the stand-in checks it arrived.
class FixedToken : public Credential {
 public:
  Result<void> authorize(HttpRequest& req, Timestamp) override {
    req.headers.emplace_back("Authorization", "Bearer test-token");
    return {};
  }
  std::string describe() const override { return "a fixed token"; }
};

// The service's answer: tests/azure/fixtures/blob/user_delegation_key.xml.
std::string answer() {
  std::ifstream in(TRAINYARD_SOURCE_DIR "/tests/azure/fixtures/blob/user_delegation_key.xml");
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class StandIn {
 public:
  StandIn() {
    server_.Post("/mlteamdata/", [this](const httplib::Request& q, httplib::Response& r) {
      std::lock_guard<std::mutex> g(mu_);
      seen_ = q;
      r.set_content(answer(), "application/xml");
    });
    port_ = server_.bind_to_any_port("127.0.0.1");
    thread_ = std::thread([this] { server_.listen_after_bind(); });
    for (int i = 0; i < 5000 && !server_.is_running(); ++i) std::this_thread::sleep_for(1ms);
  }
  ~StandIn() {
    server_.stop();
    thread_.join();
  }
  std::string endpoint() const {
    return "http://127.0.0.1:" + std::to_string(port_) + "/mlteamdata";
  }
  httplib::Request seen() {
    std::lock_guard<std::mutex> g(mu_);
    return seen_;
  }

 private:
  httplib::Server server_;
  int port_ = 0;
  std::thread thread_;
  std::mutex mu_;
  httplib::Request seen_;
};

Timestamp at_utc(int y, unsigned m, unsigned d, std::chrono::seconds time_of_day) {
  return Timestamp(std::chrono::sys_days(std::chrono::year(y) / m / d)) + time_of_day;
}

TEST(UserDelegationKeyRequest, PostsTheValidityUnderTheTokenAndSignsWithTheAnswer) {
  StandIn service;
  ManualClock clock(at_utc(2026, 11, 27, 6h));
  BlobClientOptions o;
  o.blob_endpoint = service.endpoint();
  BlobClient client(o, std::make_shared<FixedToken>(), clock);
  auto key = client.user_delegation_key(at_utc(2026, 11, 27, 5h + 45min), at_utc(2026, 11, 28, 6h));
  ASSERT_TRUE(key.ok()) << key.error().message;
  auto q = service.seen();
  EXPECT_EQ(q.get_param_value("restype"), "service");
  EXPECT_EQ(q.get_param_value("comp"), "userdelegationkey");
  EXPECT_EQ(q.get_header_value("Authorization"), "Bearer test-token");
  EXPECT_NE(q.body.find("<Start>2026-11-27T05:45:00Z</Start><Expiry>2026-11-28T06:00:00Z</Expiry>"),
            std::string::npos)
      << q.body;
  ServiceSasRequest req{"mlteamdata", service.endpoint(), "job-train", "", {}, {}, {}};
  req.permissions.create = req.permissions.write = true;
  req.start = at_utc(2026, 11, 27, 5h + 45min);
  req.expiry = at_utc(2026, 11, 27, 6h);
  auto sas = SasSigner(*key).sign(req);
  ASSERT_TRUE(sas.ok()) << sas.error().message;
  // The token blob_auth_test's SDK-checked case signs for the same key and request.
  EXPECT_TRUE(sas->ends_with("&sig=1a37FMYYdRs3AesO%2BfZrkEFS6D8S8QtRg6LazLavg5c%3D")) << *sas;
}

}  // namespace
}  // namespace trainyard::azure::user_delegation_key_test
