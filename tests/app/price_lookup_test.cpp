// look_up_prices: the cache answers while under a day old, the API after that (or with refresh),
// and the cache of any age when the API cannot be reached.
#include <gtest/gtest.h>

#include "../azure/fake_prices_server.hpp"
#include "price_lookup.hpp"

namespace trainyard::price_lookup_test {
namespace {

using namespace std::chrono_literals;
using testing_prices::FakePrices;

const Timestamp kT0 = from_micros(1'800'000'000'000'000);
const azure::PriceQuery kQuery{"Standard_NC4as_T4_v3", ""};

class PriceLookup : public ::testing::Test {
 protected:
  void SetUp() override {
    auto s = Store::open(":memory:");
    ASSERT_TRUE(s.ok()) << s.error().message;
    store_ = std::move(*s);
    settings_.endpoint = server_.endpoint();
  }
  Result<PriceAnswer> at(Timestamp now, bool refresh = false) {
    return look_up_prices(*store_, http_, settings_, kQuery, refresh, now);
  }

  FakePrices server_;
  azure::HttpClient http_;
  azure::PriceSettings settings_;
  std::unique_ptr<Store> store_;
};

TEST_F(PriceLookup, TheCacheAnswersForADay) {
  auto first = at(kT0);
  ASSERT_TRUE(first.ok()) << first.error().message;
  EXPECT_FALSE(first->from_cache);
  EXPECT_EQ(first->prices.size(), 9u);
  EXPECT_EQ(server_.requests(), 3);
  auto cached = at(kT0 + 23h + 59min);
  ASSERT_TRUE(cached.ok());
  EXPECT_TRUE(cached->from_cache);
  EXPECT_EQ(cached->fetched_at, kT0);
  EXPECT_EQ(cached->prices.size(), 9u);
  EXPECT_EQ(server_.requests(), 3);
  auto stale = at(kT0 + 24h);
  ASSERT_TRUE(stale.ok());
  EXPECT_FALSE(stale->from_cache);
  EXPECT_EQ(stale->fetched_at, kT0 + 24h);
  EXPECT_EQ(server_.requests(), 6);
}

TEST_F(PriceLookup, RefreshAsksAgain) {
  ASSERT_TRUE(at(kT0).ok());
  auto again = at(kT0 + 1min, true);
  ASSERT_TRUE(again.ok());
  EXPECT_FALSE(again->from_cache);
  EXPECT_EQ(server_.requests(), 6);
}

TEST_F(PriceLookup, OfflineTheCacheOfAnyAgeAnswersAndSaysWhy) {
  ASSERT_TRUE(at(kT0).ok());
  server_.stop();
  auto week_later = at(kT0 + 24h * 7);
  ASSERT_TRUE(week_later.ok()) << week_later.error().message;
  EXPECT_TRUE(week_later->from_cache);
  EXPECT_EQ(week_later->fetched_at, kT0);
  EXPECT_EQ(week_later->prices.size(), 9u);
  EXPECT_EQ(week_later->offline.rfind("prices: GET " + server_.endpoint(), 0), 0u)
      << week_later->offline;
}

TEST_F(PriceLookup, RegionsSortBySpotWithTheDiscount) {
  auto a = at(kT0);
  ASSERT_TRUE(a.ok());
  auto rows = prices_by_region(a->prices, 0.8);
  ASSERT_EQ(rows.size(), 4u);
  std::vector<std::string> order;
  for (const auto& r : rows) order.push_back(r.region);
  EXPECT_EQ(order,
            (std::vector<std::string>{"eastus", "japaneast", "westeurope", "southcentralus"}));
  EXPECT_EQ(*rows[2].spot, 0.48992);  // 0.6124 x 0.8, to 1e-8
  EXPECT_FALSE(rows[3].spot);
  EXPECT_EQ(discounted(0.1578, 0.8), 0.12624);
}

}  // namespace
}  // namespace trainyard::price_lookup_test
