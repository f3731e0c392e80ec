// `t` in the Logs pane: when each line was read, from the read marks the supervisor (or a Batch
// task's poller) left; a line read long after its task ended has no time.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>

#include "local/task_environment.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_log_times_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

constexpr TermSize kHuge{200, 60};

Timestamp utc(const char* iso) {
  return *parse_iso8601(iso);
}

class TuiLogTimes : public TuiScreen {
 protected:
  // The offset just past the line holding `text` in resnet-sweep/lr-0001's stdout.
  int64_t end_of_line_with(const std::string& text) {
    auto paths = run_paths(fixture_.dir(), "resnet-sweep", "lr-0001");
    std::ifstream in(paths.stdout_txt, std::ios::binary);
    std::string all((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    return static_cast<int64_t>(all.find('\n', all.find(text)) + 1);
  }
  void mark(const std::string& line_text, const char* seen_at) {
    LogMark m{end_of_line_with(line_text), utc(seen_at)};
    ASSERT_TRUE(fixture_.ctx().store->add_log_mark(kLocalAccount, "resnet-sweep", "lr-0001",
                                                   "stdout.txt", m));
  }
  // lr-0001 ran 10:00:00 to 10:42:17. Four reads: two while it ran, one 8 s after it ended
  // (within the grace), and one at 11:30 (a late read: it dates nothing).
  void open_timed_log(TermSize size) {
    mark("training on 1 GPU", "2024-03-01T10:00:03Z");
    mark("after clear", "2024-03-01T10:00:41Z");
    mark("WARNING", "2024-03-01T10:42:25Z");
    mark("epoch 20", "2024-03-01T11:30:00Z");
    open(size, "tasks", "resnet-sweep");
    select_task("0001");
    keys("Enter t");
  }
};

TEST_F(TuiLogTimes, EachLineShowsTheFirstReadPastItsStart) {
  open_timed_log(kNormal);
  EXPECT_NE(line_with("epoch 1 step 100").find("10:00:03 ^[]0;pwned titleepoch 1"),
            std::string::npos);
  EXPECT_NE(line_with("training on").find("10:00:03 INFO"), std::string::npos);
  EXPECT_NE(line_with("progress 100%").find("10:00:41 progress"), std::string::npos);
  EXPECT_NE(line_with("after clear").find("10:00:41 ^[[2J^[[Hafter clear"), std::string::npos);
  EXPECT_NE(line_with("WARNING").find("10:42:25 WARNING"), std::string::npos);
  EXPECT_NE(line_with("epoch 20").find("--:--:-- epoch 20"), std::string::npos);
  expect("logs_times_80x24");
  keys("t");
  EXPECT_EQ(line_with("epoch 20").find("--:--:--"), std::string::npos);
}

TEST_F(TuiLogTimes, StayOnAcrossStdoutAndStderr) {
  open_timed_log(kHuge);
  expect("logs_times_200x60");
  keys("e");  // stderr keeps no marks here: every line's time is unknown
  EXPECT_NE(line_with("Traceback").find("--:--:-- Traceback"), std::string::npos);
}

}  // namespace
}  // namespace trainyard::tui_log_times_test
