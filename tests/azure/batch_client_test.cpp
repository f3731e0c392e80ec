// The Batch client against `trainyard emulator`: signed calls, paging, errors, retries, TLS.
#include <gtest/gtest.h>

#include <thread>

#include "azure/batch_client.hpp"
#include "emulator_process.hpp"

namespace trainyard::azure::batch_client_test {
namespace {

using azuretest::EmulatorProcess;
using nlohmann::json;

struct Fixture {
  explicit Fixture(std::vector<std::string> extra = {}, bool trust_emulator_ca = false)
      : emu(std::move(extra)) {
    BatchClientOptions o;
    o.account = emu.account();
    o.endpoint = emu.endpoint();
    o.retry.base = std::chrono::milliseconds(20);
    o.retry.cap = std::chrono::milliseconds(200);
    o.retry.max_retries = 8;
    http = std::make_shared<HttpClient>(TlsOptions{trust_emulator_ca ? emu.ca_file() : ""});
    client = std::make_unique<BatchClient>(o, http, shared_key_credential(emu.account(), emu.key()),
                                           clock);
  }
  EmulatorProcess emu;
  SystemClock clock;
  std::shared_ptr<HttpClient> http;
  std::unique_ptr<BatchClient> client;
};

bool wait_until(const std::function<bool()>& fn, int seconds = 20) {
  for (int i = 0; i < seconds * 10; ++i) {
    if (fn()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  return false;
}

TEST(BatchClient, PagesThroughASeededJob) {
  Fixture f({"--seed-tasks", "2300"});
  auto tasks = f.client->tasks("seed-sweep", "", "id,state,executionInfo");
  ASSERT_TRUE(tasks.ok()) << tasks.error().message;
  ASSERT_EQ(tasks->size(), 2300u);
  EXPECT_EQ(tasks->front().id, "task-0000001");
  EXPECT_EQ(tasks->front().state, TaskState::Completed);
  EXPECT_EQ(tasks->front().account, f.emu.account());
  EXPECT_EQ(f.client->stats().requests, 3u);  // 1000 + 1000 + 300
  auto failed =
      f.client->tasks("seed-sweep", "executionInfo/result eq 'failure'", "id,executionInfo");
  ASSERT_TRUE(failed.ok());
  EXPECT_GT(failed->size(), 0u);
  for (const auto& t : *failed) EXPECT_NE(t.execution_info.exit_code.value_or(0), 0);
  auto pools = f.client->pools();
  ASSERT_TRUE(pools.ok());
  EXPECT_EQ(pools->size(), 2u);
  auto nodes = f.client->nodes("seed-gpu");
  ASSERT_TRUE(nodes.ok());
  EXPECT_EQ(nodes->size(), 8u);
}

TEST(BatchClient, ErrorsCarryTheBatchCodeAndRequestId) {
  Fixture f;
  auto r = f.client->call("GET", "/jobs/nope");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::NotFound);
  EXPECT_EQ(r.error().message.rfind(
                "JobNotFound: The specified job does not exist. (HTTP 404, request-id ", 0),
            0u)
      << r.error().message;
  auto bad_filter = f.client->tasks("nope", "bogus eq 1");
  ASSERT_FALSE(bad_filter.ok());
  EXPECT_NE(bad_filter.error().message.find("InvalidQueryParameterValue"), std::string::npos);
}

// The property at fault is the error's field (a form puts the message under it), and the
// details (PropertyName, Reason; a formula's Message with its line and column) stay in the text.
TEST(BatchClient, ErrorsNameThePropertyAtFault) {
  Fixture f;
  json pool{{"id", "p1"}, {"vmSize", "STANDARD_D2S_V3"}, {"taskSlotsPerNode", 300}};
  auto r = f.client->call("POST", "/pools", {}, pool.dump(),
                          {{"Content-Type", "application/json; odata=minimalmetadata"}}, false);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(property_at_fault(r.error()), "taskSlotsPerNode");
  EXPECT_NE(r.error().message.find("InvalidPropertyValue: "), std::string::npos);
  EXPECT_NE(r.error().message.find("[PropertyName: taskSlotsPerNode]"), std::string::npos)
      << r.error().message;
  ASSERT_TRUE(f.client
                  ->call("POST", "/pools", {}, json{{"id", "p2"}, {"vmSize", "x"}}.dump(),
                         {{"Content-Type", "application/json; odata=minimalmetadata"}}, false)
                  .ok());
  auto bad = f.client->call("POST", "/pools/p2/enableautoscale", {},
                            json{{"autoScaleFormula", "$TargetDedicatedNodes = 1 +;"}}.dump(),
                            {{"Content-Type", "application/json; odata=minimalmetadata"}}, false);
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(property_at_fault(bad.error()), "");
  EXPECT_NE(bad.error().message.find("[Message: Line 1, Col "), std::string::npos)
      << bad.error().message;
}

TEST(BatchClient, AWrongKeyIsAnAuthError) {
  Fixture f;
  BatchClientOptions o;
  o.account = f.emu.account();
  o.endpoint = f.emu.endpoint();
  BatchClient wrong(o, f.http, shared_key_credential(o.account, "d3Jvbmcta2V5LXdyb25nLWtleQ=="),
                    f.clock);
  auto r = wrong.pools();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Auth);
  EXPECT_NE(r.error().message.find("AuthenticationFailed"), std::string::npos);
}

TEST(BatchClient, RetriesThrottlingAndServerErrors) {
  Fixture f({"--faults", "429=0.2,503=0.1,500=0.05,retry-after=0,seed=11"});
  for (int i = 0; i < 10; ++i) {
    auto r = f.client->pools();
    ASSERT_TRUE(r.ok()) << r.error().message;
  }
  EXPECT_GT(f.client->stats().retries, 0u);
}

TEST(BatchClient, AddTaskIsSafeToRetry) {
  Fixture f;
  json pool{{"id", "p"}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", 1}};
  ASSERT_TRUE(f.client->call("POST", "/pools", {}, pool.dump(), {}, false).ok());
  json job{{"id", "j"}, {"poolInfo", {{"poolId", "p"}}}};
  ASSERT_TRUE(f.client->call("POST", "/jobs", {}, job.dump(), {}, false).ok());
  json task{{"id", "t1"}, {"commandLine", "echo hi"}};
  ASSERT_TRUE(f.client->add_task("j", task).ok());
  // Without a retry in between, a second add of the same id is a real conflict.
  auto again = f.client->add_task("j", task);
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.error().kind, ErrorKind::Conflict);
  EXPECT_TRUE(wait_until([&] {
    auto t = f.client->tasks("j");
    return t.ok() && t->size() == 1 && t->front().state == TaskState::Completed;
  }));
}

TEST(BatchClient, TlsVerifiesAgainstTheEmulatorsCa) {
  Fixture trusted({"--tls"}, true);
  EXPECT_EQ(trusted.emu.endpoint().rfind("https://", 0), 0u);
  auto ok = trusted.client->pools();
  EXPECT_TRUE(ok.ok()) << ok.error().message;
  Fixture untrusted({"--tls"});
  auto refused = untrusted.client->pools();
  ASSERT_FALSE(refused.ok());
  EXPECT_EQ(refused.error().kind, ErrorKind::Network);
}

TEST(BatchClient, PlainHttpOnlyOnLoopback) {
  SystemClock clock;
  BatchClientOptions o;
  o.account = "a";
  o.endpoint = "http://a.westus.batch.azure.com";
  BatchClient c(o, std::make_shared<HttpClient>(), shared_key_credential("a", "a2V5"), clock);
  auto r = c.pools();
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().kind, ErrorKind::Usage);
}

}  // namespace
}  // namespace trainyard::azure::batch_client_test
