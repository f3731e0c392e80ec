// `trainyard prices` against a loopback server in the Retail Prices API's shape
// (tests/fixtures/prices, three pages), with prices.discount 0.8: each figure is the fixture's
// retail price × 0.8, worked out by hand.
#include "../azure/fake_prices_server.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest::prices_test {
namespace {

using testing_prices::FakePrices;
constexpr const char* kSize = "Standard_NC4as_T4_v3";

class Prices : public Cli {
 protected:
  Prices() { configure(server_.endpoint(), "0.8"); }

  void configure(const std::string& endpoint, const std::string& discount) {
    auto dir = root() + "/xdg-config/trainyard";
    fs::create_directories(dir);
    std::ofstream(dir + "/config.json")
        << R"({"prices": {"endpoint": ")" << endpoint << R"(", "discount": )" << discount << "}}";
  }

  json prices_json(std::vector<std::string> extra = {}) {
    std::vector<std::string> args = {"prices", "--vm-size", kSize, "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = ty(args);
    EXPECT_EQ(r.code, 0) << r.err;
    return r.code == 0 ? json::parse(r.out) : json();
  }

  // The row of `region`, checked against the hand-computed figures (null: no price).
  static void expect_row(const json& row, const std::string& region, const json& dedicated,
                         const json& spot, const json& low_priority) {
    EXPECT_EQ(row.value("region", ""), region);
    EXPECT_EQ(row.value("vmSize", ""), kSize);
    EXPECT_EQ(row.value("currency", ""), "USD");
    for (auto [key, want] : {std::pair{"dedicated", &dedicated}, std::pair{"spot", &spot},
                             std::pair{"lowPriority", &low_priority}}) {
      if (want->is_null())
        EXPECT_TRUE(row.at(key).is_null()) << region << " " << key << ": " << row.at(key);
      else
        EXPECT_NEAR(row.at(key).get<double>(), want->get<double>(), 1e-12) << region << " " << key;
    }
  }

  FakePrices server_;
};

TEST_F(Prices, EveryRegionCheapestSpotFirstWithTheDiscount) {
  auto before = std::chrono::system_clock::now();
  auto rows = prices_json();
  EXPECT_EQ(server_.requests(), 3);  // three pages
  ASSERT_EQ(rows.size(), 4u) << rows.dump();
  // eastus: 0.526, Spot 0.1578 (the 2024 row, not 2022's 0.2104), low priority 0.1052.
  expect_row(rows[0], "eastus", 0.4208, 0.12624, 0.08416);
  // japaneast: 0.752, Spot 0.3008, low priority 1.504 per 10 hours.
  expect_row(rows[1], "japaneast", 0.6016, 0.24064, 0.12032);
  // westeurope: 0.658, Spot 0.6124 (Windows Spot 0.05 ignored), low priority only per month.
  expect_row(rows[2], "westeurope", 0.5264, 0.48992, nullptr);
  // southcentralus has no Spot row: last.
  expect_row(rows[3], "southcentralus", 0.4208, nullptr, nullptr);
  EXPECT_EQ(rows[2].dump().find("0.48992000"), std::string::npos) << rows[2].dump();
  auto as_of = rows[0].value("asOf", "");
  ASSERT_GE(as_of.size(), 19u) << as_of;
  auto day = [](std::chrono::system_clock::time_point t) {
    std::time_t secs = std::chrono::system_clock::to_time_t(t);
    std::tm tm{};
    ::gmtime_r(&secs, &tm);
    char text[16];
    std::strftime(text, sizeof text, "%Y-%m-%d", &tm);
    return std::string(text);
  };
  auto after = std::chrono::system_clock::now();
  EXPECT_TRUE(as_of.starts_with(day(before)) || as_of.starts_with(day(after))) << as_of;
}

TEST_F(Prices, OneRegionAsATable) {
  auto r = ty({"prices", "--vm-size", kSize, "--region", "westeurope"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(server_.filters().size(), 1u);
  EXPECT_NE(server_.filters()[0].find("armRegionName eq 'westeurope'"), std::string::npos);
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 3u) << r.out;
  EXPECT_TRUE(std::regex_match(lines[0], std::regex("REGION +DEDICATED +SPOT +LOW PRIORITY")))
      << lines[0];
  EXPECT_TRUE(std::regex_match(lines[1], std::regex("westeurope +0\\.5264 +0\\.4899 +-")))
      << lines[1];
  EXPECT_NE(lines[2].find("Standard_NC4as_T4_v3, Linux: USD per hour, 20% off retail"),
            std::string::npos)
      << lines[2];
}

TEST_F(Prices, FreshPricesComeFromTheCacheAndOfflineFromAnyAge) {
  auto first = prices_json();
  ASSERT_EQ(server_.requests(), 3);
  EXPECT_EQ(prices_json(), first);                                 // fresh: no request
  EXPECT_EQ(prices_json({"--region", "japaneast"})[0], first[1]);  // covered by the full fetch
  EXPECT_EQ(server_.requests(), 3);
  prices_json({"--refresh"});
  EXPECT_EQ(server_.requests(), 6);
  server_.stop();
  auto r = ty({"prices", "--vm-size", kSize, "--json", "--refresh"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto offline = json::parse(r.out);
  ASSERT_EQ(offline.size(), 4u);
  expect_row(offline[2], "westeurope", 0.5264, 0.48992, nullptr);
  ASSERT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("trainyard: prices: GET " + server_.endpoint() + "/api/retail/prices: "),
            std::string::npos)
      << r.err;
  EXPECT_NE(r.err.find("; showing the prices cached 20"), std::string::npos) << r.err;
}

TEST_F(Prices, NoCacheAndNoServiceIsAnError) {
  server_.stop();
  auto r = ty({"prices", "--vm-size", kSize});
  EXPECT_EQ(r.code, 1);
  EXPECT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_NE(r.err.find("prices: GET " + server_.endpoint()), std::string::npos) << r.err;
  EXPECT_EQ(r.out, "");
}

TEST_F(Prices, AnUnknownSizeSaysSo) {
  auto r = ty({"prices", "--vm-size", "Standard_Nope", "--region", "eastus"});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("no Linux prices for Standard_Nope in region eastus"), std::string::npos)
      << r.err;
}

TEST_F(Prices, BadInputIsRefusedInOneLine) {
  auto quote = ty({"prices", "--vm-size", "x' or 'a"});
  EXPECT_EQ(quote.code, 2);
  EXPECT_NE(quote.err.find("--vm-size"), std::string::npos) << quote.err;
  configure(server_.endpoint(), "1.25");
  auto discount = ty({"prices", "--vm-size", kSize});
  EXPECT_EQ(discount.code, 2);
  EXPECT_EQ(lines_of(discount.err).size(), 1u) << discount.err;
  EXPECT_NE(discount.err.find("config.json: /prices/discount: expected a factor"),
            std::string::npos)
      << discount.err;
  EXPECT_EQ(server_.requests(), 0);
}

}  // namespace
}  // namespace trainyard::clitest::prices_test
