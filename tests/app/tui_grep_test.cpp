// `:grep` over a job's logs, and `:save` of a log, on the fixture: resnet-sweep/lr-0001 has a
// hostile stdout (two `loss=` lines: 1 and 9) and a stderr ending in a CUDA out-of-memory error.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "tui_screen.hpp"

namespace trainyard::tui_grep_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

constexpr TermSize kHuge{200, 60};

class TuiGrep : public TuiScreen {
 protected:
  void command(const std::string& text) {
    keys(":");
    type(text);
    keys("Enter");
  }
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
