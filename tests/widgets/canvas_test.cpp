#include "widgets/canvas.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "snapshot.hpp"
#include "widgets/box.hpp"

namespace trainyard {
namespace {

TEST(Canvas, DrawsAndClips) {
  Canvas c(10, 2);
  EXPECT_EQ(c.draw_text(7, 0, "abcdef", Role::Row, 100), 3);
  EXPECT_EQ(c.draw_text(-2, 1, "abcdef", Role::Row, 100), 6);
  EXPECT_EQ(c.to_text(), "       abc\ncdef");
  EXPECT_EQ(c.at(7, 0).role, Role::Row);
  EXPECT_EQ(c.draw_text(0, 5, "x", Role::Row, 1), 0);
}

TEST(Canvas, WideCharactersUseTwoCells) {
  Canvas c(6, 1);
  EXPECT_EQ(c.draw_text(0, 0, "日本語", Role::Row, 6), 6);
  EXPECT_EQ(c.at(0, 0).grapheme, "日");
  EXPECT_TRUE(c.at(1, 0).continuation());
  EXPECT_EQ(c.to_text(), "日本語");
  // A wide character that does not fit is left out rather than split.
  Canvas d(5, 1);
  EXPECT_EQ(d.draw_text(0, 0, "日本語", Role::Row, 5), 4);
  EXPECT_EQ(d.to_text(), "日本");
}

TEST(Canvas, OverwritingHalfAWideCharacterBlanksTheOtherHalf) {
  Canvas c(4, 1);
  c.draw_text(0, 0, "日本", Role::Row, 4);
  c.draw_text(1, 0, "x", Role::Dim, 1);
  EXPECT_EQ(c.to_text(), " x本");
  c.draw_text(2, 0, "y", Role::Dim, 1);
  EXPECT_EQ(c.to_text(), " xy");
  EXPECT_FALSE(c.at(3, 0).continuation());
}

TEST(Canvas, CombiningMarksJoinTheirBase) {
  Canvas c(4, 1);
  c.draw_text(0, 0, "e\u0301x", Role::Row, 4);
  EXPECT_EQ(c.at(0, 0).grapheme, "e\u0301");
  EXPECT_EQ(c.at(1, 0).grapheme, "x");
}

TEST(Canvas, ControlsAndBadBytesBecomeInertPlaceholders) {
  Canvas c(10, 1);
  EXPECT_EQ(c.draw_text(0, 0, "a\x1b[2Jb\xff", Role::Row, 10), 8);
  EXPECT_EQ(c.to_text(), "a^[[2Jb\uFFFD");
}

// Every hostile character takes cells of its own as a visible placeholder: nothing is attached
// to the cell before it, so nothing reorders, hides or drives what the terminal shows.
TEST(Canvas, BidiZeroWidthAndControlsGetCellsOfTheirOwn) {
  Canvas c(50, 1);
  const std::string hostile =
      "a\u202E"
      "b\u200B"
      "c\x1b]0;PWNED\x07"
      "d\xc2\x9b"
      "e\x07\x9b"
      "f";
  EXPECT_EQ(c.draw_text(0, 0, hostile, Role::Row, 50), 43);
  EXPECT_EQ(c.to_text(), "a<U+202E>b<U+200B>c^[]0;PWNEDd<U+009B>e^G\uFFFDf");
  EXPECT_EQ(c.at(0, 0).grapheme, "a");
  EXPECT_EQ(c.at(1, 0).grapheme, "<");
  EXPECT_EQ(c.at(9, 0).grapheme, "b");
}

TEST(Canvas, LineBreaksStayOnOneRow) {
  Canvas c(12, 2);
  c.draw_text(0, 0, "x\ny\r\nz", Role::Row, 12);
  EXPECT_EQ(c.to_text(), "x \u23CE y \u23CE z\n");
}

TEST(Canvas, TruncationAndAlignmentMeasureThePlaceholders) {
  Canvas c(8, 2);
  c.draw_text_truncated(0, 0, "\u202Eabc", Role::Row, 6);
  c.draw_aligned(0, 1, "\x07x", Role::Row, 5, Align::Right);
  EXPECT_EQ(c.to_text(), "<U+20\u2026\n  ^Gx");
}

TEST(Canvas, PutDrawsOnlyInertGraphemes) {
  Canvas c(4, 1);
  c.put(0, 0, "\x1b", 1, Role::Row);
  c.put(1, 0, "\u202E", 1, Role::Row);
  c.put(2, 0, "x", 1, Role::Row);
  c.fill({3, 0, 1, 1}, Role::Row, "\x07");
  EXPECT_EQ(c.to_text(), "\uFFFD\uFFFDx\uFFFD");
}

TEST(Canvas, Truncated) {
  Canvas c(8, 1);
  c.draw_text_truncated(0, 0, "trainyard", Role::Row, 6);
  EXPECT_EQ(c.to_text(), "train…");
}

TEST(Canvas, Snapshot) {
  Canvas c(24, 5);
  Rect inner = draw_pane(c, c.bounds(), "jobs", true, "3/120");
  c.draw_text(inner.x, inner.y, "plain", Role::Row, inner.w);
  c.draw_text(inner.x, inner.y + 1, "日本語 🚀 ok", Role::StateRunning, inner.w);
  c.draw_text_truncated(inner.x, inner.y + 2, "a very long line of text", Role::Dim, inner.w);
  snapshot::expect_snapshot(c, "canvas", "pane_focused");
  Canvas n(9, 3);
  draw_pane(n, n.bounds(), "a long title", false, "3/120");
  snapshot::expect_snapshot(n, "canvas", "pane_narrow");
}

TEST(Snapshot, MissingFileFailsEvenWhenCiBlocksUpdates) {
  auto path = std::filesystem::temp_directory_path() / "trainyard_snapshot_test" / "x.txt";
  std::filesystem::remove_all(path.parent_path());
  // Runs with CI set so updating() is false whatever the caller's environment says.
  const char* old_ci = std::getenv("CI");
  std::string saved_ci = old_ci ? old_ci : "";
  setenv("CI", "1", 1);
  EXPECT_FALSE(snapshot::updating());
  auto r = snapshot::matches_file(path, "text\n");
  EXPECT_FALSE(r);
  EXPECT_FALSE(std::filesystem::exists(path));
  snapshot::write(path, "old\n");
  EXPECT_FALSE(snapshot::matches_file(path, "new\n"));
  EXPECT_EQ(snapshot::read(path.parent_path() / "x.actual.txt"), "new\n");
  EXPECT_TRUE(snapshot::matches_file(path, "old\n"));
  EXPECT_FALSE(std::filesystem::exists(path.parent_path() / "x.actual.txt"));
  std::filesystem::remove_all(path.parent_path());
  if (old_ci != nullptr) {
    setenv("CI", saved_ci.c_str(), 1);
  } else {
    unsetenv("CI");
  }
}

}  // namespace
}  // namespace trainyard

namespace trainyard {
namespace {

// Regression: a 1x1 terminal made the status bar fill a zero-width rect outside the canvas.
TEST(Canvas, FillOfAnEmptyOrOutsideRectTouchesNothing) {
  Canvas c(1, 1);
  c.fill(Rect{1, 0, 0, 1}, Role::StatusBar);
  c.fill(Rect{0, 0, 0, 1}, Role::StatusBar);
  c.fill(Rect{5, 5, 3, 3}, Role::StatusBar);
  EXPECT_EQ(c.at(0, 0).role, Role::Default);
  c.fill(Rect{0, 0, 1, 1}, Role::StatusBar);
  EXPECT_EQ(c.at(0, 0).role, Role::StatusBar);
}

}  // namespace
}  // namespace trainyard
