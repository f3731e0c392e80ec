// The TUI over an account of `trainyard emulator` (seeded, fully synced), driven by keys (test
// fixture).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <chrono>
#include <memory>
#include <sstream>
#include <string>
#include <thread>

#include "../azure/emulator_client.hpp"
#include "azure/batch_actions.hpp"
#include "sync/batch_sync.hpp"
#include "tui_fixture.hpp"
#include "tui_screen.hpp"

namespace trainyard::apptest {

/// A TUI on an emulator account with two seeded pools.
class TuiBatch : public TuiScreen {
 protected:
  // The emulator checks each request's signed date against its own clock.
  TuiBatch() : TuiScreen(std::make_unique<SystemClock>()) {}

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
    return azuretest::emulator_client(emu_, *clock_);
  }
  void open_batch(const std::string& view, bool readonly = false, const std::string& job = "",
                  const std::string& account = "") {
    term_ = std::make_unique<HeadlessTerminal>(kNormal);
    TuiOptions o;
    o.view = view;
    o.job = job;
    o.account = account.empty() ? emu_.account() : account;
    o.readonly = readonly;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
  }
  template <typename Pred>
  bool eventually(Pred p) {
    for (int i = 0; i < 150; ++i, std::this_thread::sleep_for(std::chrono::milliseconds(100)))
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
  /// Polls as the interactive loop does, every 0.2 s (the shortest focus interval allowed).
  void go_live() {
    fixture_.ctx().settings.poll.focus_seconds = 0.2;
    tui_->go_live();
  }
  /// One turn of the loop: workers' and pollers' news taken in, the screen drawn.
  std::string pumped() {
    tui_->pump();
    tui_->draw();
    return screen();
  }
  /// The screen line that contains `text` ("" when none does).
  std::string line_with(const std::string& text) {
    std::istringstream in(screen());
    for (std::string line; std::getline(in, line);)
      if (line.find(text) != std::string::npos) return line;
    return "";
  }

  azuretest::EmulatorProcess emu_{{"--seed-tasks", "20"}};
};

}  // namespace trainyard::apptest
