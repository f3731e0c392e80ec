// Long lines in the log view, the JSON view and a plugin's output: wrap reaches every line (it
// scrolls by rows), and without wrap h l 0 $ scroll sideways with a cut line marked.
#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "local/task_environment.hpp"
#include "tui_screen.hpp"

namespace trainyard {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

class TuiLongLines : public TuiScreen {
 protected:
  // resnet-sweep/lr-0001's stdout: a first line of 50,000 characters ending in `END1`, then
  // three short lines.
  void write_long_log() {
    auto paths = run_paths(fixture_.ctx().data_dir, "resnet-sweep", "lr-0001");
    std::ofstream out(paths.stdout_txt, std::ios::binary | std::ios::trunc);
    for (int i = 0; i < 5000; ++i) out << "abcdefghi ";
    out << "END1\nline two\nline three\nlast line\n";
  }
  void open_log() {
    write_long_log();
    open(kNormal, "tasks", "resnet-sweep");
    select_task("0001");
    keys("Enter g");
  }
};

TEST_F(TuiLongLines, WrapReachesTheLinesAfterALineLongerThanTheScreen) {
  open_log();
  keys("w");
  EXPECT_EQ(line_with("line two"), "") << screen();
  keys("G");
  EXPECT_NE(line_with("last line"), "") << screen();
  EXPECT_NE(line_with("END1"), "") << screen();  // the long line's last row, above the rest
  keys("g");
  for (int i = 0; i < 40; ++i) keys("NPage");
  EXPECT_NE(line_with("line two"), "") << screen();
  keys("g j");  // one row down: the long line's second row at the top
  EXPECT_EQ(line_with("line two"), "");
  EXPECT_NE(line_with("L 1/4"), "") << screen();
}

TEST_F(TuiLongLines, WithoutWrapACutLineIsMarkedAndScrollsSideways) {
  open_log();
  auto first = line_with("abcdefghi");
  ASSERT_NE(first, "") << screen();
  EXPECT_NE(first.find(">│"), std::string::npos) << first;  // it goes on past the edge
  keys("$");
  EXPECT_NE(line_with("END1"), "") << screen();
  EXPECT_NE(line_with("END1").find("│<"), std::string::npos) << line_with("END1");
  keys("0");
  EXPECT_EQ(line_with("END1"), "");
  keys("l l");
  EXPECT_NE(line_with("│<"), "") << screen();
  keys("h h");
  EXPECT_EQ(line_with("│<"), "") << screen();
  keys("w l");
  EXPECT_NE(line_with("wrap is on: w turns it off"), "") << screen();
}

// The JSON view (`y`) searches with `/` and wraps with `w`, so a long commandLine is read whole.
TEST_F(TuiLongLines, TheJsonViewSearchesAndWraps) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("y /");
  type("commandline");
  keys("Enter");
  EXPECT_NE(line_with("\"commandLine\""), "") << screen();
  keys("n");
  EXPECT_NE(line_with("search wrapped"), "") << screen();
  keys("w");
  EXPECT_NE(line_with("wrap"), "") << screen();
  keys("/");
  type("nothing-like-this");
  keys("Enter");
  EXPECT_NE(line_with("'nothing-like-this' not found"), "") << screen();
}

}  // namespace
}  // namespace trainyard
