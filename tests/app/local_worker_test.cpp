// The TUI's local-engine thread, as the headless screens and --dump-frame wait on it.
#include <gtest/gtest.h>

#include "local_worker.hpp"
#include "tui_fixture.hpp"

namespace trainyard::local_worker_test {
namespace {

TEST(LocalWorker, SettleWaitsForTheFirstSchedulingPass) {
  ManualClock clock(apptest::kFixtureNow);
  apptest::TuiFixture fixture(clock);  // its store has jobs but no local pool yet
  EngineConfig config;
  config.data_dir = fixture.dir();
  config.trainyard_exe = "/nonexistent/trainyard";
  {
    LocalWorker worker(fixture.dir(), config, clock, [](Event) {});
    worker.settle();
    // The first pass writes the local pool and node; a settled screen shows them.
    auto pools = fixture.ctx().store->pools("local");
    ASSERT_TRUE(pools) << pools.error().message;
    ASSERT_EQ(pools->size(), 1u);
    EXPECT_EQ(pools->front().id, "local");
    auto nodes = fixture.ctx().store->nodes("local", "local");
    ASSERT_TRUE(nodes) << nodes.error().message;
    EXPECT_EQ(nodes->size(), 1u);
  }
}

}  // namespace
}  // namespace trainyard::local_worker_test
