#include "themes/color.hpp"

#include <gtest/gtest.h>

namespace trainyard::color_test {
namespace {

TEST(ColorDepth, NoColorWins) {
  EXPECT_EQ(detect_color_depth("xterm-256color", "truecolor", "1"), ColorDepth::Mono);
  // NO_COLOR set but empty does not count (no-color.org).
  EXPECT_EQ(detect_color_depth("xterm-256color", "", ""), ColorDepth::Ansi256);
}

TEST(ColorDepth, FromTermAndColorterm) {
  EXPECT_EQ(detect_color_depth("xterm-256color", "truecolor", ""), ColorDepth::TrueColor);
  EXPECT_EQ(detect_color_depth("tmux-256color", "24bit", ""), ColorDepth::TrueColor);
  EXPECT_EQ(detect_color_depth("xterm-direct", "", ""), ColorDepth::TrueColor);
  EXPECT_EQ(detect_color_depth("screen-256color", "", ""), ColorDepth::Ansi256);
  EXPECT_EQ(detect_color_depth("xterm", "", ""), ColorDepth::Ansi256);
  EXPECT_EQ(detect_color_depth("linux", "", ""), ColorDepth::Ansi8);
  EXPECT_EQ(detect_color_depth("vt100", "", ""), ColorDepth::Ansi8);
  EXPECT_EQ(detect_color_depth("dumb", "", ""), ColorDepth::Mono);
  EXPECT_EQ(detect_color_depth("", "", ""), ColorDepth::Mono);
}

TEST(Color, ParseAndFormatRoundTrip) {
  for (const char* text : {"default", "red", "bright_white", "75", "232", "#ff8000"}) {
    auto c = parse_color(text);
    ASSERT_TRUE(c.has_value()) << text;
    EXPECT_EQ(format_color(*c), text);
  }
  EXPECT_EQ(parse_color("9"), Color::indexed(9));
  EXPECT_EQ(format_color(Color::indexed(9)), "bright_red");
  for (const char* bad : {"", "#12345", "#gggggg", "256", "-1", "purple", "bright_", "12a"}) {
    EXPECT_FALSE(parse_color(bad).has_value()) << bad;
  }
}

TEST(Color, Palette) {
  EXPECT_EQ(palette_rgb(16), (std::array<std::uint8_t, 3>{0, 0, 0}));
  EXPECT_EQ(palette_rgb(231), (std::array<std::uint8_t, 3>{255, 255, 255}));
  EXPECT_EQ(palette_rgb(75), (std::array<std::uint8_t, 3>{95, 175, 255}));
  EXPECT_EQ(palette_rgb(232), (std::array<std::uint8_t, 3>{8, 8, 8}));
  EXPECT_EQ(palette_rgb(255), (std::array<std::uint8_t, 3>{238, 238, 238}));
}

TEST(Downgrade, TrueColorTo256) {
  EXPECT_EQ(downgrade(Color::rgb(95, 175, 255), ColorDepth::Ansi256), Color::indexed(75));
  EXPECT_EQ(downgrade(Color::rgb(255, 0, 0), ColorDepth::Ansi256), Color::indexed(196));
  EXPECT_EQ(downgrade(Color::rgb(128, 128, 128), ColorDepth::Ansi256), Color::indexed(244));
  EXPECT_EQ(downgrade(Color::indexed(75), ColorDepth::Ansi256), Color::indexed(75));
}

TEST(Downgrade, To8) {
  EXPECT_EQ(downgrade(Color::indexed(3), ColorDepth::Ansi8), Color::indexed(3));
  EXPECT_EQ(downgrade(Color::indexed(9), ColorDepth::Ansi8), Color::indexed(1));
  EXPECT_EQ(downgrade(Color::indexed(196), ColorDepth::Ansi8), Color::indexed(1));
  EXPECT_EQ(downgrade(Color::indexed(231), ColorDepth::Ansi8), Color::indexed(7));
  EXPECT_EQ(downgrade(Color::indexed(16), ColorDepth::Ansi8), Color::indexed(0));
  EXPECT_EQ(downgrade(Color::rgb(0, 0, 250), ColorDepth::Ansi8), Color::indexed(4));
  EXPECT_EQ(downgrade(Color::rgb(250, 200, 0), ColorDepth::Ansi8), Color::indexed(3));
}

TEST(Downgrade, MonoAndDefault) {
  EXPECT_TRUE(downgrade(Color::indexed(75), ColorDepth::Mono).is_default());
  EXPECT_TRUE(downgrade(Color::rgb(1, 2, 3), ColorDepth::Mono).is_default());
  EXPECT_TRUE(downgrade(Color::terminal_default(), ColorDepth::Ansi8).is_default());
  EXPECT_EQ(downgrade(Color::rgb(1, 2, 3), ColorDepth::TrueColor), Color::rgb(1, 2, 3));
}

}  // namespace
}  // namespace trainyard::color_test
