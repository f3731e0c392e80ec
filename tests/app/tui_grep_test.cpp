// `:grep` over a job's logs, and `:save` of a log, on the fixture: resnet-sweep/lr-0001 has a
// hostile stdout (two `loss=` lines: 1 and 9) and a stderr ending in a CUDA out-of-memory error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "local/task_environment.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_grep_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

constexpr TermSize kHuge{200, 60};

class TuiGrep : public TuiScreen {
 protected:
};

TEST_F(TuiGrep, PlainTextOverEveryTaskOfTheJob) {
  open(kNormal, "tasks", "resnet-sweep");
  command("grep LOSS");
  expect("grep_80x24");
}

TEST_F(TuiGrep, FromTheJobsPaneLarge) {
  open(kHuge, "jobs");
  keys("g");  // the newest job: resnet-sweep
  command("grep loss");
  expect("grep_200x60");
}

// A regex finds the stderr line; Enter opens stderr at that line with the match highlighted.
TEST_F(TuiGrep, RegexHitOpensTheLogAtItsLine) {
  open(kNormal, "tasks", "resnet-sweep");
  command("grep /out of (memory|time)/");
  expect("grep_regex_80x24");
  keys("Enter");
  expect("grep_opened_80x24");
  keys("Escape");
  expect("grep_regex_80x24");
}

// A run that printed loss=nan in an earlier attempt kept that attempt's log as
// stdout.attempt-0.txt: grep reads it too, says which attempt each line is of (TRY 0 for the
// first, 1 for the latest here), and Enter opens that attempt's file.
TEST_F(TuiGrep, EveryAttemptsLogIsSearched) {
  auto dir = run_paths(fixture_.dir(), "resnet-sweep", "lr-0001").dir;
  std::ofstream(dir + "/stdout.attempt-0.txt") << "epoch 1 loss=nan\nattempt 0 ends\n";
  std::ofstream(dir + "/stderr.attempt-0.txt") << "";
  open(kHuge, "tasks", "resnet-sweep");
  command("grep ends");
  auto hit = line_with("attempt 0 ends");
  EXPECT_TRUE(std::regex_search(hit, std::regex("lr-0001 +stdout +0 +2 +attempt 0 ends"))) << hit;
  EXPECT_NE(line_with("1 line(s) match ends in 4 log(s)"), "") << screen();
  keys("Escape :");
  type("grep loss=");
  keys("Enter");
  EXPECT_TRUE(
      std::regex_search(line_with("loss=nan"), std::regex(" stdout +0 +1 +epoch 1 loss=nan")))
      << screen();
  EXPECT_TRUE(std::regex_search(line_with("loss=0.9120"), std::regex(" stdout +1 +\\d+ ")))
      << screen();
  keys("g Enter");  // the first hit: attempt 0's line
  EXPECT_NE(line_with("resnet-sweep › lr-0001 › stdout.attempt-0"), "") << screen();
  EXPECT_NE(line_with("epoch 1 loss=nan"), "") << screen();
}

TEST_F(TuiGrep, ABadRegexIsRefusedOnTheStatusLine) {
  open(kNormal, "tasks", "resnet-sweep");
  command("grep /(unclosed/");
  expect("grep_bad_regex_80x24");
}

// `:save` writes the raw log (escapes and all); a second save to the same file asks first.
TEST_F(TuiGrep, SaveWritesTheLogAndAsksBeforeReplacing) {
  auto out = std::filesystem::path(fixture_.dir()) / "saved-stderr.log";
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter e");
  command("save " + out.string());
  std::ifstream in(out, std::ios::binary);
  std::stringstream text;
  text << in.rdbuf();
  EXPECT_EQ(text.str(),
            "Traceback (most recent call last):\n  File \"train.py\", line 88\n"
            "RuntimeError: \x1b[1mCUDA out of memory\x1b[0m\n");
  command("save " + out.string());
  ASSERT_NE(term_->last_frame().to_text().find("Overwrite file"), std::string::npos);
  keys("Escape");  // declined: the file stays
  EXPECT_TRUE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace trainyard::tui_grep_test
