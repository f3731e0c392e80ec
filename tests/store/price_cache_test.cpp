// The price cache: a fetch replaces what it covers in one transaction, a fetch of every region
// covers each one, and sizes and regions match without regard to case.
#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "store/price_cache.hpp"

namespace trainyard::testing::price_cache_test {
namespace {

constexpr const char* kSize = "Standard_NC4as_T4_v3";

VmPrice price(const std::string& region, PriceKind kind, double hourly) {
  VmPrice p;
  p.vm_size = kSize;
  p.region = region;
  p.kind = kind;
  p.hourly = hourly;
  p.currency = "USD";
  p.effective_from = at_seconds(-86400);
  return p;
}

class PriceCacheTest : public StoreTest {};

TEST_F(PriceCacheTest, NothingCachedIsNeverFetched) {
  auto c = cached_prices(*store_, kSize, "");
  ASSERT_TRUE(c.ok()) << c.error().message;
  EXPECT_FALSE(c->fetched_at);
  EXPECT_TRUE(c->prices.empty());
}

TEST_F(PriceCacheTest, AFetchOfEveryRegionAnswersEachRegion) {
  std::vector<VmPrice> all = {
      price("westeurope", PriceKind::Spot, 0.6124), price("eastus", PriceKind::LowPriority, 0.1052),
      price("eastus", PriceKind::Dedicated, 0.526), price("eastus", PriceKind::Spot, 0.1578)};
  ASSERT_TRUE(store_prices(*store_, kSize, "", all, at_seconds(100)).ok());
  auto every = cached_prices(*store_, kSize, "");
  ASSERT_TRUE(every.ok()) << every.error().message;
  EXPECT_EQ(every->fetched_at, at_seconds(100));
  // By region, then dedicated, Spot, low-priority.
  std::vector<CachedPrice> expected = {{all[2], at_seconds(100)},
                                       {all[3], at_seconds(100)},
                                       {all[1], at_seconds(100)},
                                       {all[0], at_seconds(100)}};
  EXPECT_EQ(every->prices, expected);
  auto one = cached_prices(*store_, "standard_nc4as_t4_v3", "WestEurope");
  ASSERT_TRUE(one.ok()) << one.error().message;
  EXPECT_EQ(one->fetched_at, at_seconds(100));
  ASSERT_EQ(one->prices.size(), 1u);
  EXPECT_EQ(one->prices[0].price.hourly, 0.6124);
  auto other_size = cached_prices(*store_, "Standard_NC6", "");
  ASSERT_TRUE(other_size.ok());
  EXPECT_FALSE(other_size->fetched_at);
}

TEST_F(PriceCacheTest, ARegionsFetchReplacesOnlyThatRegion) {
  ASSERT_TRUE(store_prices(*store_, kSize, "",
                           {price("eastus", PriceKind::Spot, 0.1578),
                            price("westeurope", PriceKind::Spot, 0.6124)},
                           at_seconds(100))
                  .ok());
  ASSERT_TRUE(store_prices(*store_, kSize, "eastus", {price("eastus", PriceKind::Spot, 0.2)},
                           at_seconds(200))
                  .ok());
  auto east = cached_prices(*store_, kSize, "eastus");
  ASSERT_TRUE(east.ok());
  EXPECT_EQ(east->fetched_at, at_seconds(200));
  ASSERT_EQ(east->prices.size(), 1u);
  EXPECT_EQ(east->prices[0].price.hourly, 0.2);
  EXPECT_EQ(east->prices[0].fetched_at, at_seconds(200));
  auto every = cached_prices(*store_, kSize, "");
  ASSERT_TRUE(every.ok());
  EXPECT_EQ(every->fetched_at, at_seconds(100));  // all regions were last asked for at 100
  ASSERT_EQ(every->prices.size(), 2u);
  EXPECT_EQ(every->prices[1].price.hourly, 0.6124);
}

TEST_F(PriceCacheTest, AFailedReplaceLeavesTheCacheAsItWas) {
  ASSERT_TRUE(
      store_prices(*store_, kSize, "", {price("eastus", PriceKind::Spot, 0.1578)}, at_seconds(100))
          .ok());
  // Two rows for one (region, kind): the second insert fails after the old rows were deleted.
  auto failed =
      store_prices(*store_, kSize, "",
                   {price("eastus", PriceKind::Spot, 0.3), price("eastus", PriceKind::Spot, 0.4)},
                   at_seconds(200));
  EXPECT_FALSE(failed.ok());
  auto c = cached_prices(*store_, kSize, "");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->fetched_at, at_seconds(100));
  ASSERT_EQ(c->prices.size(), 1u);
  EXPECT_EQ(c->prices[0].price.hourly, 0.1578);
}

TEST_F(PriceCacheTest, AnEmptyAnswerIsRememberedAsAsked) {
  ASSERT_TRUE(store_prices(*store_, kSize, "nowhere", {}, at_seconds(300)).ok());
  auto c = cached_prices(*store_, kSize, "nowhere");
  ASSERT_TRUE(c.ok());
  EXPECT_EQ(c->fetched_at, at_seconds(300));
  EXPECT_TRUE(c->prices.empty());
}

}  // namespace
}  // namespace trainyard::testing::price_cache_test
