// Clicks and the wheel on the fixture's panes at 80x24: the Jobs pane's rows are on screen rows
// 3 (resnet-sweep), 4 (bert-finetune), 5 (default) and 6 (lr-grid), under the crumbs (row 0),
// the pane's border (row 1) and the header (row 2).
#include <gtest/gtest.h>

#include "app/settings.hpp"
#include "tui_screen.hpp"

namespace trainyard::apptest::tui_mouse_test {
namespace {

class TuiMouse : public TuiScreen {
 protected:
  void mouse(Key k, int x, int y) {
    tui_->handle_key(KeyEvent::mouse(k, x, y));
    tui_->settle();
    tui_->draw();
  }
  std::string line(int y) {
    std::istringstream in(term_->last_frame().to_text());
    std::string l;
    for (int i = 0; i <= y; ++i) std::getline(in, l);
    return l;
  }
  std::string crumbs() { return line(0); }
};

TEST_F(TuiMouse, AClickSelectsTheRowUnderItAndASecondOneOpensIt) {
  open(kNormal, "jobs");
  mouse(Key::Click, 20, 5);
  EXPECT_EQ(crumbs().rfind("local › jobs", 0), 0u);
  EXPECT_EQ(crumbs().find("default"), std::string::npos) << crumbs();
  mouse(Key::Click, 20, 5);
  EXPECT_EQ(crumbs().rfind("local › jobs › default", 0), 0u) << crumbs();
}

TEST_F(TuiMouse, AClickSelectsAsTheKeysDo) {
  open(kNormal, "jobs");
  mouse(Key::Click, 3, 6);  // lr-grid
  keys("Enter");
  EXPECT_EQ(crumbs().rfind("local › jobs › lr-grid", 0), 0u) << crumbs();
}

TEST_F(TuiMouse, AClickOffTheRowsChangesNothing) {
  open(kNormal, "jobs");
  for (auto [x, y] : {std::pair{20, 2}, {20, 7}, {20, 15}, {0, 4}, {79, 4}, {20, 23}})
    mouse(Key::Click, x, y);  // header, below the rows, the borders, the status line
  EXPECT_EQ(crumbs().rfind("local › jobs", 0), 0u) << crumbs();
  keys("Enter");  // the selection is still the first row
  EXPECT_EQ(crumbs().rfind("local › jobs › resnet-sweep", 0), 0u) << crumbs();
}

TEST_F(TuiMouse, TheWheelMovesThreeRowsANotch) {
  open(kNormal, "jobs");
  mouse(Key::WheelDown, 20, 10);  // row 0 → 3
  keys("Enter");
  EXPECT_EQ(crumbs().rfind("local › jobs › lr-grid", 0), 0u) << crumbs();
  keys("Escape");
  mouse(Key::WheelDown, 20, 10);  // clamped at the last row
  mouse(Key::WheelUp, 20, 10);    // 3 → 0
  keys("Enter");
  EXPECT_EQ(crumbs().rfind("local › jobs › resnet-sweep", 0), 0u) << crumbs();
}

TEST_F(TuiMouse, TheWheelScrollsTheHelpAndAClickLeavesItOpen) {
  open(kNormal, "jobs");
  keys("?");
  ASSERT_NE(line(4).find("Everywhere"), std::string::npos) << line(4);
  mouse(Key::WheelDown, 40, 10);  // three lines: the fourth is on top
  EXPECT_EQ(line(4).rfind("││ ?       help", 0), 0u) << line(4);
  mouse(Key::Click, 40, 10);
  EXPECT_EQ(line(4).rfind("││ ?       help", 0), 0u) << line(4);
  mouse(Key::WheelUp, 40, 10);
  EXPECT_NE(line(4).find("Everywhere"), std::string::npos) << line(4);
}

TEST_F(TuiMouse, APromptIgnoresTheMouse) {
  open(kNormal, "jobs");
  keys("/");
  mouse(Key::Click, 20, 5);
  mouse(Key::Click, 20, 5);
  mouse(Key::WheelDown, 20, 5);
  keys("Escape Enter");  // the filter closed; the first row is still selected
  EXPECT_EQ(crumbs().rfind("local › jobs › resnet-sweep", 0), 0u) << crumbs();
}

TEST(MouseSetting, IsOnUnlessTheConfigSaysFalse) {
  auto on = parse_settings("{}", "cfg.json");
  ASSERT_TRUE(on) << on.error().message;
  EXPECT_TRUE(on->mouse);
  auto off = parse_settings(R"({"mouse": false})", "cfg.json");
  ASSERT_TRUE(off) << off.error().message;
  EXPECT_FALSE(off->mouse);
  auto bad = parse_settings(R"({"mouse": "no"})", "cfg.json");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "cfg.json: /mouse: expected true or false");
}

TEST(MouseKeyNames, AreNamedButNeverParsed) {
  EXPECT_EQ(key_name(KeyEvent::mouse(Key::Click, 3, 4)), "Click");
  EXPECT_EQ(key_name(KeyEvent::mouse(Key::WheelDown, 0, 0)), "WheelDown");
  EXPECT_FALSE(parse_key_name("Click"));
  EXPECT_FALSE(parse_key_name("WheelUp"));
}

}  // namespace
}  // namespace trainyard::apptest::tui_mouse_test
