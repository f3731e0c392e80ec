// `trainyard cost` on a Batch account's cache, seeded in the store as a sync leaves it, with the
// prices from a loopback server in the Retail Prices API's shape (tests/fixtures/prices) and
// prices.discount 0.8. The account's endpoint names westeurope, where Standard_NC4as_T4_v3 costs
// 0.658 dedicated and 0.6124 Spot per hour: 0.5264 and 0.48992 with the discount. Every expected
// figure below is worked out by hand from those.
#include <fmt/format.h>
#include "../azure/fake_prices_server.hpp"

#include "cli_fixture.hpp"
#include "store/store.hpp"

namespace trainyard::clitest::cost_test {
namespace {

using testing_prices::FakePrices;

constexpr double kDedicated = 0.5264;  // 0.658 x 0.8
constexpr double kSpot = 0.48992;      // 0.6124 x 0.8

// 2026-11-20 at hh:mm UTC.
Timestamp at(int hh, int mm) {
  return parse_iso8601(fmt::format("2026-11-20T{:02}:{:02}:00Z", hh, mm)).value();
}

class Cost : public Cli {
 protected:
  Cost() {
    configure("https://acct.westeurope.batch.azure.com");
    fs::create_directories(data());
    auto store = Store::open(data() + "/cache.db");
    EXPECT_TRUE(store.ok()) << store.error().message;
    if (store.ok()) seed(**store);
  }

  // `budget`: the account's `budget` object, when not empty.
  void configure(const std::string& endpoint, const std::string& budget = "") {
    auto dir = root() + "/xdg-config/trainyard";
    fs::create_directories(dir);
    std::ofstream(dir + "/config.json")
        << R"({"prices": {"endpoint": ")" << server_.endpoint()
        << R"(", "discount": 0.8}, "accounts": [{"name": "acct", "endpoint": ")" << endpoint
        << R"(", "auth": {"keyEnv": "ACCT_KEY"})"
        << (budget.empty() ? "" : R"(, "budget": )" + budget) << "}]}";
  }

  static void ok(const Result<void>& r) { ASSERT_TRUE(r.ok()) << r.error().message; }

  static Pool pool(const std::string& id, const std::string& size, int dedicated, int spot) {
    Pool p;
    p.account = "acct";
    p.id = id;
    p.vm_size = size;  // lower case, as Batch reports it
    p.current_dedicated_nodes = p.target_dedicated_nodes = dedicated;
    p.current_low_priority_nodes = p.target_low_priority_nodes = spot;
    p.task_slots_per_node = 4;
    return p;
  }

  static Node node(const std::string& id, bool dedicated, NodeState state = NodeState::Running) {
    Node n;
    n.account = "acct";
    n.pool_id = "gpu";
    n.id = id;
    n.is_dedicated = dedicated;
    n.state = state;
    n.task_slots = 4;
    return n;
  }

  static Job job(const std::string& id, const std::string& pool) {
    Job j;
    j.account = "acct";
    j.id = id;
    j.pool_id = pool;
    return j;
  }

  // A task that ran on `node` from `start` to `end` (completed), or never started.
  static Task task(const std::string& job, const std::string& id, const std::string& node,
                   int slots, std::optional<Timestamp> start, std::optional<Timestamp> end) {
    Task t;
    t.account = "acct";
    t.job_id = job;
    t.id = id;
    t.required_slots = slots;
    t.creation_time = t.state_transition_time = at(8, 0);
    if (start) {
      t.execution_info.start_time = start;
      t.node_info = TaskNodeInfo{job == "prep" ? "cpu" : "gpu", node, ""};
    }
    if (end) {
      t.state = TaskState::Completed;
      t.execution_info.end_time = t.state_transition_time = end;
      t.execution_info.exit_code = 0;
    }
    return t;
  }

  // t3 ran 09:00-09:20 on a Spot node that was preempted, was requeued, and ran again on s2
  // from 09:30 to 10:30: each change stored as a sync stores it.
  static void preempted_then_rerun(Store& s) {
    auto t = task("train", "t3", "", 1, std::nullopt, std::nullopt);
    ok(s.upsert_task(t));
    auto runs_on = [&](const std::string& node, Timestamp start) {
      t.state = TaskState::Running;
      t.previous_state = TaskState::Active;
      t.state_transition_time = t.execution_info.start_time = start;
      t.node_info = TaskNodeInfo{"gpu", node, ""};
      ok(s.upsert_task(t));
    };
    runs_on("s3", at(9, 0));
    t.state = TaskState::Active;  // s3 preempted: requeued
    t.previous_state = TaskState::Running;
    t.state_transition_time = at(9, 20);
    t.execution_info.requeue_count = 1;
    t.node_info.reset();
    ok(s.upsert_task(t));
    runs_on("s2", at(9, 30));
    t.state = TaskState::Completed;
    t.previous_state = TaskState::Running;
    t.state_transition_time = t.execution_info.end_time = at(10, 30);
    t.execution_info.exit_code = 0;
    ok(s.upsert_task(t));
  }

  static void seed(Store& s) {
    ok(s.upsert_pool(pool("gpu", "standard_nc4as_t4_v3", 2, 3)));
    ok(s.upsert_pool(pool("cpu", "standard_d2s_v3", 1, 0)));  // no price in the fixture
    for (const auto& n : {node("d1", true), node("d2", true), node("s1", false), node("s2", false),
                          node("s3", false, NodeState::Preempted)})
      ok(s.upsert_node(n));
    for (const auto& j : {job("train", "gpu"), job("eval", "gpu"), job("prep", "cpu")})
      ok(s.upsert_job(j));
    ok(s.upsert_task(task("train", "t1", "d1", 4, at(10, 0), at(11, 30))));
    ok(s.upsert_task(task("train", "t2", "s1", 2, at(10, 0), at(10, 45))));
    preempted_then_rerun(s);
    ok(s.upsert_task(task("train", "t4", "", 1, std::nullopt, std::nullopt)));
    ok(s.upsert_task(task("eval", "e1", "", 1, std::nullopt, std::nullopt)));
    ok(s.upsert_task(task("prep", "p1", "c1", 1, at(10, 0), at(11, 0))));
  }

  json cost_json(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"cost", "--offline", "--account", "acct", "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = ty(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? json::parse(r.out) : json();
  }

  static const json& by_id(const json& items, const std::string& id) {
    static const json none;
    for (const auto& i : items)
      if (i.value("id", "") == id) return i;
    ADD_FAILURE() << "no " << id << " in " << items.dump();
    return none;
  }

  FakePrices server_;
};

// t1: 1.5 h on dedicated d1, all 4 of 4 slots: 1.5 x 0.5264 = 0.7896.
// t2: 0.75 h on Spot s1, 2 of 4 slots: 0.75 x 0.48992 x 0.5 = 0.18372.
// t3: 1/3 h on the preempted Spot node, then 1 h on Spot s2, 1 of 4 slots:
//     (1/3 + 1) x 0.48992 x 0.25 = 0.16330666...
constexpr double kTrainSoFar = 0.7896 + 0.18372 + (4.0 / 3.0) * kSpot * 0.25;

TEST_F(Cost, BurnRatesCostsAndProjectionsAsJson) {
  auto r = cost_json();
  EXPECT_EQ(r.value("currency", ""), "USD") << r.dump();
  EXPECT_TRUE(r.value("pricesAsOf", "").starts_with("20")) << r.dump();
  ASSERT_EQ(r["pools"].size(), 2u) << r.dump();
  const auto& gpu = by_id(r["pools"], "gpu");
  EXPECT_EQ(gpu.value("vmSize", ""), "standard_nc4as_t4_v3");
  EXPECT_EQ(gpu.value("region", ""), "westeurope");
  EXPECT_NEAR(gpu["dedicated"].get<double>(), kDedicated, 1e-12);
  EXPECT_NEAR(gpu["spot"].get<double>(), kSpot, 1e-12);
  // 2 dedicated x 0.5264 + (3 Spot - 1 preempted) x 0.48992 = 1.0528 + 0.97984 = 2.03264.
  EXPECT_NEAR(gpu["hourly"].get<double>(), 2.03264, 1e-9);
  const auto& cpu = by_id(r["pools"], "cpu");
  for (const char* key : {"dedicated", "spot", "hourly"})
    EXPECT_TRUE(cpu[key].is_null()) << key << ": " << cpu.dump();

  ASSERT_EQ(r["jobs"].size(), 3u) << r.dump();
  const auto& train = by_id(r["jobs"], "train");
  EXPECT_NEAR(train["costSoFar"].get<double>(), 1.13662666667, 1e-9);
  EXPECT_NEAR(train["costSoFar"].get<double>(), kTrainSoFar, 1e-9);
  // 3 of 4 tasks finished: 1.13662666... / 3 x 4 = 1.51550222...
  EXPECT_NEAR(train["projected"].get<double>(), 1.51550222222, 1e-9);
  const auto& eval = by_id(r["jobs"], "eval");
  EXPECT_EQ(eval["costSoFar"].get<double>(), 0.0);
  EXPECT_TRUE(eval["projected"].is_null()) << eval.dump();  // nothing finished yet
  const auto& prep = by_id(r["jobs"], "prep");
  EXPECT_TRUE(prep["costSoFar"].is_null()) << prep.dump();  // its pool's price is unknown
  EXPECT_TRUE(prep["projected"].is_null()) << prep.dump();
  EXPECT_EQ(r.size(), 4u) << r.dump();
  EXPECT_EQ(gpu.size(), 6u) << gpu.dump();
  EXPECT_EQ(train.size(), 3u) << train.dump();
}

TEST_F(Cost, OneJobAndItsPool) {
  auto r = cost_json({"--job", "train"});
  ASSERT_EQ(r["pools"].size(), 1u) << r.dump();
  EXPECT_EQ(r["pools"][0].value("id", ""), "gpu");
  ASSERT_EQ(r["jobs"].size(), 1u) << r.dump();
  EXPECT_NEAR(r["jobs"][0]["costSoFar"].get<double>(), kTrainSoFar, 1e-9);
  auto missing = ty({"cost", "--offline", "--account", "acct", "--job", "nope"});
  EXPECT_EQ(missing.code, 1);
  EXPECT_NE(missing.err.find("job nope is not in acct's cache"), std::string::npos) << missing.err;
}

// The row of `first` in a text table.
std::string row(const std::string& out, const std::string& first) {
  for (const auto& l : lines_of(out))
    if (l.starts_with(first + " ")) return l;
  return "";
}

TEST_F(Cost, TheTableSaysWhichPricesEachFigureUsed) {
  auto r = ty({"cost", "--offline", "--account", "acct"});
  ASSERT_EQ(r.code, 0) << r.err;
  const std::string prices = "westeurope USD 20[0-9-]{8} [0-9:]{5} UTC";
  EXPECT_TRUE(std::regex_match(
      row(r.out, "gpu"), std::regex("gpu +standard_nc4as_t4_v3 +2 x 0\\.5264 +2 x 0\\.4899 +1 "
                                    "+2\\.0326 +" +
                                    prices)))
      << r.out;
  EXPECT_TRUE(std::regex_match(
      row(r.out, "cpu"), std::regex("cpu +standard_d2s_v3 +1 x \\? +0 x \\? +0 +unknown +none")))
      << r.out;
  EXPECT_TRUE(std::regex_match(row(r.out, "train"),
                               std::regex("train +gpu +3/4 +1\\.1366 +1\\.5155 +" + prices)))
      << r.out;
  EXPECT_TRUE(
      std::regex_match(row(r.out, "eval"), std::regex("eval +gpu +0/1 +0\\.0000 +- +" + prices)))
      << r.out;
  EXPECT_TRUE(
      std::regex_match(row(r.out, "prep"), std::regex("prep +cpu +1/1 +unknown +unknown +none")))
      << r.out;
  EXPECT_NE(r.out.find("pool cpu: no prices: no Linux price for standard_d2s_v3 in westeurope"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("job eval: no task has finished yet"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("job prep: unknown: no Linux price"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("20% off retail (prices.discount 0.8)"), std::string::npos) << r.out;
}

// train's projection 1.51550222 against 1.2: over, 126%; against 2: 76%. The account's total is
// unknown: prep's pool has no price.
TEST_F(Cost, BudgetsAgainstTheProjections) {
  configure("https://acct.westeurope.batch.azure.com", R"({"total": 1, "jobs": {"train": 1.2}})");
  auto r = ty({"cost", "--offline", "--account", "acct"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_NE(r.out.find("budget: job train projected 1.5155 USD, over its 1.2000 USD budget (126%)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("budget: acct projected unknown, against its 1.0000 USD budget"),
            std::string::npos)
      << r.out;
  configure("https://acct.westeurope.batch.azure.com", R"({"total": 1, "jobs": {"train": 2}})");
  auto one = ty({"cost", "--offline", "--account", "acct", "--job", "train"});
  ASSERT_EQ(one.code, 0) << one.err;
  EXPECT_NE(one.out.find("budget: job train projected 1.5155 USD, of its 2.0000 USD budget (76%)"),
            std::string::npos)
      << one.out;
  EXPECT_EQ(one.out.find("budget: acct"), std::string::npos) << one.out;  // one job is not all
}

TEST_F(Cost, AnAccountWithoutARegionIsToldToSetOne) {
  configure("http://127.0.0.1:9");
  auto r = ty({"cost", "--offline", "--account", "acct"});
  EXPECT_EQ(r.code, 2) << r.out;
  // The cache's age, then the one line that says what is wrong.
  ASSERT_EQ(lines_of(r.err).size(), 2u) << r.err;
  EXPECT_EQ(lines_of(r.err)[0], "trainyard: acct: offline: nodes never listed");
  EXPECT_NE(r.err.find("account 'acct': no region"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("set \"region\" on the account in config.json"), std::string::npos) << r.err;
  EXPECT_EQ(server_.requests(), 0);
}

}  // namespace
}  // namespace trainyard::clitest::cost_test
