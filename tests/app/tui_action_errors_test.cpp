// A failed action reports its own error on the status line, whatever the poller says meanwhile:
// with a wrong key, terminate (`t`) must not leave only the recurring sync failure on screen.
#include <gtest/gtest.h>

#include <cstdlib>

#include "tui_batch_fixture.hpp"

namespace trainyard::tui_action_errors_test {
namespace {

using apptest::TuiBatch;

// The emulator's key with its first character changed: the right shape, the wrong secret.
std::string wrong_key(std::string key) {
  key[0] = key[0] == 'A' ? 'B' : 'A';
  return key;
}

// The status line at 80 columns: the action, then the service's code (cut to the width, and
// dimmed as `[earlier]` once newer data came).
constexpr const char* kFailure = "terminate job seed-sweep: Auth";

TEST_F(TuiBatch, TerminateWithAWrongKeySaysWhyItFailed) {
  ::setenv("TY_TUI_TEST_KEY", wrong_key(emu_.key()).c_str(), 1);
  open_batch("jobs");
  go_live();
  // The poller has met the refusal.
  ASSERT_TRUE(eventually([&] {
    pumped();
    return screen().find("sync: ") != std::string::npos;
  })) << screen();
  keys("t y");
  ASSERT_TRUE(eventually([&] {
    pumped();
    return screen().find(kFailure) != std::string::npos &&
           screen().find("sync: ") == std::string::npos;
  })) << screen();
  // It stays while the poller keeps failing (it retries within 2 s, then after 4 s).
  for (int i = 0; i < 40; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    pumped();
  }
  EXPECT_NE(screen().find(kFailure), std::string::npos) << screen();
  EXPECT_EQ(screen().find("sync: "), std::string::npos) << screen();
}

}  // namespace
}  // namespace trainyard::tui_action_errors_test
