// SGR colours a program wrote map to theme roles: hand-made escape sequences through the real
// sanitizer, then the role each styled run gets.
#include "widgets/log_roles.hpp"

#include <gtest/gtest.h>

namespace trainyard::log_roles_test {
namespace {

// The role of the first styled run of `bytes` (one line).
Role role_of(const std::string& bytes) {
  auto lines = sanitize_lines(bytes);
  EXPECT_EQ(lines.size(), 1u);
  if (lines.empty() || lines[0].spans.empty()) return Role::Default;
  return log_role(lines[0].spans[0].style);
}

TEST(LogRoles, BasicColoursMapToTheirMeaning) {
  EXPECT_EQ(role_of("\x1b[31mred"), Role::LogError);
  EXPECT_EQ(role_of("\x1b[91mbright red"), Role::LogError);
  EXPECT_EQ(role_of("\x1b[32mgreen"), Role::LogOk);
  EXPECT_EQ(role_of("\x1b[92mbright green"), Role::LogOk);
  EXPECT_EQ(role_of("\x1b[33myellow"), Role::LogWarn);
  EXPECT_EQ(role_of("\x1b[93mbright yellow"), Role::LogWarn);
  EXPECT_EQ(role_of("\x1b[34mblue"), Role::LogInfo);
  EXPECT_EQ(role_of("\x1b[36mcyan"), Role::LogInfo);
  EXPECT_EQ(role_of("\x1b[95mmagenta"), Role::LogInfo);
}

TEST(LogRoles, GreysAndBlackAndWhiteAreText) {
  EXPECT_EQ(role_of("\x1b[30mblack"), Role::LogText);
  EXPECT_EQ(role_of("\x1b[37mwhite"), Role::LogText);
  EXPECT_EQ(role_of("\x1b[90mgrey"), Role::LogText);
  EXPECT_EQ(role_of("\x1b[38;5;244mgrey ramp"), Role::LogText);
  EXPECT_EQ(role_of("\x1b[38;5;231mcube white"), Role::LogText);
}

TEST(LogRoles, AttributesWithoutAColour) {
  EXPECT_EQ(role_of("\x1b[1mbold"), Role::LogEmphasis);
  EXPECT_EQ(role_of("\x1b[2mdim"), Role::Dim);
  EXPECT_EQ(role_of("\x1b[1;31mbold red"), Role::LogError);  // the colour says more
  EXPECT_EQ(role_of("\x1b[1;37mbold white"), Role::LogEmphasis);
}

// 256-colour cube entries by hue: 196 is (5,0,0), 208 (5,2,0), 46 (0,5,0), 33 (0,2,5),
// 201 (5,0,5), 178 (3,3,0), 154 (3,5,0).
TEST(LogRoles, Palette256ByNearestHue) {
  EXPECT_EQ(role_of("\x1b[38;5;196mx"), Role::LogError);
  EXPECT_EQ(role_of("\x1b[38;5;208mx"), Role::LogWarn);
  EXPECT_EQ(role_of("\x1b[38;5;178mx"), Role::LogWarn);
  EXPECT_EQ(role_of("\x1b[38;5;46mx"), Role::LogOk);
  EXPECT_EQ(role_of("\x1b[38;5;154mx"), Role::LogOk);
  EXPECT_EQ(role_of("\x1b[38;5;33mx"), Role::LogInfo);
  EXPECT_EQ(role_of("\x1b[38;5;201mx"), Role::LogInfo);
  EXPECT_EQ(role_of("\x1b[38;5;2mx"), Role::LogOk);  // a basic colour in the 256 form
}

// Truecolor goes through the cube: (30,200,60) → (1,4,1), (255,165,0) → (5,3,0),
// (128,128,128) → (3,3,3).
TEST(LogRoles, TruecolorByNearestHue) {
  EXPECT_EQ(role_of("\x1b[38;2;255;0;0mx"), Role::LogError);
  EXPECT_EQ(role_of("\x1b[38;2;30;200;60mx"), Role::LogOk);
  EXPECT_EQ(role_of("\x1b[38;2;255;165;0mx"), Role::LogWarn);
  EXPECT_EQ(role_of("\x1b[38;2;128;128;128mx"), Role::LogText);
  EXPECT_EQ(role_of("\x1b[38:2::40:90:250mx"), Role::LogInfo);
}

TEST(LogRoles, BackgroundCountsWhenTheForegroundHasNoHue) {
  EXPECT_EQ(role_of("\x1b[41mFATAL"), Role::LogError);
  EXPECT_EQ(role_of("\x1b[30;43mblack on yellow"), Role::LogWarn);
  EXPECT_EQ(role_of("\x1b[32;41mgreen on red"), Role::LogOk);
}

TEST(LogRoles, LineSplitsIntoRuns) {
  auto lines = sanitize_lines("a \x1b[32mok\x1b[0m b\x07");
  ASSERT_EQ(lines.size(), 1u);
  auto line = to_log_line(lines[0]);
  ASSERT_EQ(line.size(), 4u);
  EXPECT_EQ(line[0].text, "a ");
  EXPECT_EQ(line[0].role, Role::LogText);
  EXPECT_EQ(line[1].text, "ok");
  EXPECT_EQ(line[1].role, Role::LogOk);
  EXPECT_EQ(line[2].text, " b");
  EXPECT_EQ(line[2].role, Role::LogText);
  EXPECT_EQ(line[3].text, "^G");
  EXPECT_EQ(line[3].role, Role::LogPlaceholder);
}

}  // namespace
}  // namespace trainyard::log_roles_test
