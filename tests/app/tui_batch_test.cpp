// The TUI's Batch actions against `trainyard emulator`: a key opens a form or a confirmation,
// the change reaches the service on the account's worker and its outcome the cache; read-only
// accounts and the local account refuse.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <thread>

#include "../azure/emulator_client.hpp"
#include "azure/batch_actions.hpp"
#include "sync/batch_sync.hpp"
#include "tui_fixture.hpp"
#include "tui_screen.hpp"

namespace trainyard {
namespace {

using namespace std::chrono_literals;

class TuiBatch : public apptest::TuiScreen {
 protected:
  void SetUp() override {
    ::setenv("TY_TUI_TEST_KEY", emu_.key().c_str(), 1);
    azure::AccountConfig a;
    a.name = emu_.account();
    a.endpoint = emu_.endpoint();
    a.emulator = true;
    a.auth.key_env = "TY_TUI_TEST_KEY";
    fixture_.ctx().settings.accounts = {a};
    auto client = open_client();
    SyncScope scope{emu_.account(), AccountKind::Emulator, emu_.endpoint()};
    auto synced = full_sync(*fixture_.ctx().store, *client, scope);
    ASSERT_TRUE(synced.ok()) << synced.error().message;
    ASSERT_EQ(fixture_.ctx().store->pools(emu_.account())->size(), 2u);
  }
  std::unique_ptr<azure::BatchClient> open_client() {
    return azuretest::emulator_client(emu_, clock_);
  }
  void open_batch(const std::string& view, bool readonly = false) {
    term_ = std::make_unique<HeadlessTerminal>(apptest::kNormal);
    TuiOptions o;
    o.view = view;
    o.account = emu_.account();
    o.readonly = readonly;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
  }
  template <typename Pred>
  bool eventually(Pred p) {
    for (int i = 0; i < 150; ++i, std::this_thread::sleep_for(100ms))
      if (p()) return true;
    return false;
  }
  int target_dedicated(const std::string& pool) {
    auto c = open_client();
    auto p = azure::get_pool(*c, pool);
    return p ? p->target_dedicated_nodes : -1;
  }
  int cached_target(const std::string& pool) {
    auto pools = fixture_.ctx().store->pools(emu_.account());
    if (pools)
      for (const auto& p : *pools)
        if (p.id == pool) return p.target_dedicated_nodes;
    return -1;
  }
  std::string screen() { return term_->last_frame().to_text(); }

  azuretest::EmulatorProcess emu_{{"--seed-tasks", "20"}};
  SystemClock clock_;
};

TEST_F(TuiBatch, ResizeFromThePoolsPaneReachesTheServiceAndTheCache) {
  open_batch("pools");
  ASSERT_NE(screen().find("seed-cpu"), std::string::npos) << screen();
  keys("j");  // seed-cpu is the first row; seed-gpu the second
  keys("z");
  ASSERT_NE(screen().find("Resize pool seed-gpu"), std::string::npos) << screen();
  type("5");
  keys("Enter");
  EXPECT_TRUE(eventually([&] { return target_dedicated("seed-gpu") == 5; }));
  EXPECT_TRUE(eventually([&] { return cached_target("seed-gpu") == 5; })) << screen();
}

TEST_F(TuiBatch, DeletingAPoolNeedsItsIdTyped) {
  open_batch("pools");
  keys("D");
  type("seed");
  keys("Enter");
  EXPECT_NE(screen().find("type the pool id exactly"), std::string::npos) << screen();
  keys("Escape");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(target_dedicated("seed-cpu"), 2);  // still there
  keys("D");
  type("seed-cpu");
  keys("Enter");
  EXPECT_TRUE(eventually([&] { return target_dedicated("seed-cpu") == -1; }));
}

TEST_F(TuiBatch, EnterOnNoLeavesTheJobRunning) {
  open_batch("jobs");
  keys("t Enter");
  std::this_thread::sleep_for(500ms);
  auto c = open_client();
  auto job = azure::get_job(*c, "seed-sweep");
  ASSERT_TRUE(job.ok());
  EXPECT_EQ(job->state, JobState::Active);
  keys("t y");
  EXPECT_TRUE(eventually([&] {
    auto j = azure::get_job(*c, "seed-sweep");
    return j && j->state != JobState::Active;
  }));
}

TEST_F(TuiBatch, ReadOnlyRefusesBeforeAnyFormOpens) {
  open_batch("pools", true);
  keys("z");
  EXPECT_EQ(screen().find("Resize pool"), std::string::npos);
  EXPECT_NE(screen().find("read-only"), std::string::npos) << screen();
}

TEST_F(TuiBatch, LocalAccountSaysTheKeyIsForBatch) {
  open(apptest::kNormal, "pools");
  keys("z");
  EXPECT_NE(screen().find("acts on Batch accounts"), std::string::npos) << screen();
}

}  // namespace
}  // namespace trainyard
