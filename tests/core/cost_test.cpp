// Burn rates and costs so far, against figures worked out by hand.
#include <gtest/gtest.h>

#include "core/cost.hpp"

namespace trainyard::cost_test {
namespace {

using namespace std::chrono_literals;

const Timestamp kT0 = from_micros(1'700'000'000'000'000);
const NodeRates kRates{0.526, 0.1578};  // NC4as_T4_v3 in eastus: dedicated, Spot

TEST(PoolBurnRate, DedicatedAndSpotNodesLessThePreempted) {
  // 2 × 0.526 + (3 − 1 preempted) × 0.1578 = 1.052 + 0.3156.
  EXPECT_NEAR(*pool_burn_rate({2, 3, 1}, kRates), 1.3676, 1e-12);
  EXPECT_NEAR(*pool_burn_rate({0, 4, 0}, kRates), 0.6312, 1e-12);
  EXPECT_EQ(*pool_burn_rate({0, 2, 2}, kRates), 0.0);  // every Spot node preempted
  EXPECT_EQ(*pool_burn_rate({}, kRates), 0.0);
}

TEST(PoolBurnRate, AMissingRateMattersOnlyForNodesThatBill) {
  NodeRates no_spot{0.526, std::nullopt};
  EXPECT_NEAR(*pool_burn_rate({2, 0, 0}, no_spot), 1.052, 1e-12);
  EXPECT_FALSE(pool_burn_rate({2, 1, 0}, no_spot));
  EXPECT_EQ(*pool_burn_rate({0, 1, 1}, no_spot), 0.0);
  EXPECT_FALSE(pool_burn_rate({1, 0, 0}, NodeRates{std::nullopt, 0.1578}));
}

TEST(RunCost, PartialHoursCountExactly) {
  // 90 minutes on a dedicated node, 1 slot of 4: 1.5 h × 0.526 / 4.
  EXPECT_NEAR(*run_cost({kT0, kT0 + 90min, false, 1}, kRates, 4, kT0), 0.19725, 1e-12);
  // 20 min 30 s on Spot, 2 slots of 2: 1230/3600 h × 0.1578 = 0.053915.
  EXPECT_NEAR(*run_cost({kT0, kT0 + 1230s, true, 2}, kRates, 2, kT0), 0.053915, 1e-12);
  // More slots than the node has: the whole node, not more.
  EXPECT_NEAR(*run_cost({kT0, kT0 + 1h, false, 8}, kRates, 4, kT0), 0.526, 1e-12);
}

TEST(RunCost, ARunningTaskCountsUntilNow) {
  // Started 45 minutes ago: 0.75 h × 0.526.
  EXPECT_NEAR(*run_cost({kT0, std::nullopt, false, 1}, kRates, 1, kT0 + 45min), 0.3945, 1e-12);
}

TEST(RunsCost, APreemptedSpotRunAndItsRetryOnADedicatedNode) {
  // 30 min on Spot until the node was preempted, then 60 min on a dedicated node:
  // 0.5 × 0.1578 + 1 × 0.526.
  std::vector<TaskRun> runs = {{kT0, kT0 + 30min, true, 1}, {kT0 + 40min, kT0 + 100min, false, 1}};
  EXPECT_NEAR(*runs_cost(runs, kRates, 1, kT0 + 2h), 0.6049, 1e-12);
  EXPECT_FALSE(runs_cost(runs, NodeRates{0.526, std::nullopt}, 1, kT0 + 2h));
  EXPECT_EQ(*runs_cost({}, kRates, 1, kT0), 0.0);
}

}  // namespace
}  // namespace trainyard::cost_test
