#include "widgets/ascii.hpp"

#include <gtest/gtest.h>

#include "widgets/box.hpp"
#include "widgets/canvas.hpp"

namespace trainyard {
namespace {

TEST(Ascii, BordersBecomePlusMinusAndBar) {
  EXPECT_EQ(ascii_glyph("\u2500"), "-");  // ─
  EXPECT_EQ(ascii_glyph("\u2502"), "|");  // │
  EXPECT_EQ(ascii_glyph("\u250c"), "+");  // ┌
  EXPECT_EQ(ascii_glyph("\u256f"), "+");  // ╯
  EXPECT_EQ(ascii_glyph("\u2501"), "-");  // ━
  EXPECT_EQ(ascii_glyph("\u2524"), "+");  // ┤
}

TEST(Ascii, SparklineLevelsRiseAndBarsFillWithHash) {
  std::string levels;
  for (char32_t cp = 0x2581; cp <= 0x2588; ++cp) {
    std::string g;
    g += static_cast<char>(0xE0 | (cp >> 12));
    g += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    g += static_cast<char>(0x80 | (cp & 0x3F));
    levels += ascii_glyph(g);
  }
  EXPECT_EQ(levels, "_.-=+**#");
  EXPECT_EQ(ascii_glyph("\u2588"), "#");  // █ a bar's full cell
  EXPECT_EQ(ascii_glyph("\u2591"), ".");  // ░ a bar's empty cell
  EXPECT_EQ(ascii_glyph("\u258c"), "#");  // ▌ half a cell, rounded up
  EXPECT_EQ(ascii_glyph("\u258e"), ".");  // ▎ a quarter, rounded down
}

TEST(Ascii, BrailleSaysWhereItsDotsAre) {
  EXPECT_EQ(ascii_glyph("\u2800"), " ");  // no dot
  EXPECT_EQ(ascii_glyph("\u2801"), "'");  // dot 1: top left
  EXPECT_EQ(ascii_glyph("\u2840"), ".");  // dot 7: bottom left
  EXPECT_EQ(ascii_glyph("\u2841"), ":");  // both
  EXPECT_EQ(ascii_glyph("\u28ff"), ":");  // all eight
}

TEST(Ascii, ArrowsCrumbsAndMarks) {
  EXPECT_EQ(ascii_glyph("\u25b2"), "^");  // ▲ sort ascending
  EXPECT_EQ(ascii_glyph("\u25bc"), "v");  // ▼
  EXPECT_EQ(ascii_glyph("\u203a"), ">");  // › crumbs
  EXPECT_EQ(ascii_glyph("\u2026"), "~");  // … a cut
  EXPECT_EQ(ascii_glyph("\u25cf"), "*");  // ● a mark
  EXPECT_EQ(ascii_glyph("\u00b7"), "|");  // · a separator
}

TEST(Ascii, AnythingElseIsAQuestionMarkAndAsciiStaysAsIs) {
  EXPECT_EQ(ascii_glyph("a"), "a");
  EXPECT_EQ(ascii_glyph("\u00e9"), "?");      // é
  EXPECT_EQ(ascii_glyph("e\u0301"), "e");     // e and a combining acute: the letter stays
  EXPECT_EQ(ascii_glyph("\U0001F600"), "?");  // an emoji
}

// A wide character keeps its two cells, each `?`, so the next column stays where it was.
TEST(Ascii, ACanvasKeepsItsColumns) {
  Canvas c(12, 3);
  draw_box(c, c.bounds(), Role::Border, Role::Default);
  c.draw_text(1, 1, "\u4e2d\u6587x", Role::Row, 10);
  c.to_ascii();
  EXPECT_EQ(c.to_text(), "+----------+\n|????x     |\n+----------+");
  for (int y = 0; y < c.height(); ++y)
    for (int x = 0; x < c.width(); ++x)
      for (unsigned char ch : c.at(x, y).grapheme) EXPECT_LT(ch, 0x80);
}

}  // namespace
}  // namespace trainyard
