// The Canvas: a grid of cells that widgets draw into and terminals present.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "themes/role.hpp"
#include "widgets/text.hpp"

namespace trainyard {

/// A rectangle of cells; x/y are the top-left corner.
struct Rect {
  int x = 0;  ///< left column
  int y = 0;  ///< top row
  int w = 0;  ///< width in cells
  int h = 0;  ///< height in rows

  /// One past the last column.
  constexpr int right() const { return x + w; }
  /// One past the last row.
  constexpr int bottom() const { return y + h; }
  /// True when no cell is inside.
  constexpr bool empty() const { return w <= 0 || h <= 0; }
  /// True when the cell at column `cx`, row `cy` is inside.
  constexpr bool contains(int cx, int cy) const {
    return cx >= x && cx < right() && cy >= y && cy < bottom();
  }
  /// The overlap of two rectangles (empty when they do not overlap).
  Rect intersect(const Rect& o) const;
  /// Shrinks by `n` cells on every side.
  Rect inset(int n) const;
  /// The top `n` rows (clamped).
  Rect top(int n) const;
  /// The bottom `n` rows (clamped).
  Rect bottom_rows(int n) const;
  /// Everything below the top `n` rows.
  Rect drop_top(int n) const;
  /// Everything above the bottom `n` rows.
  Rect drop_bottom(int n) const;
  /// The left `n` columns (clamped).
  Rect left(int n) const;
  /// Everything right of the left `n` columns.
  Rect drop_left(int n) const;
  /// A w×h rectangle centred in this one (clamped to it).
  Rect centered(int cw, int ch) const;
  bool operator==(const Rect&) const = default;
};

/// Extra attributes a widget may add on top of its role's style.
enum Attr : std::uint8_t {
  kAttrNone = 0,
  kAttrBold = 1,
  kAttrUnderline = 2,
  kAttrReverse = 4,
};

/// One terminal cell. A wide character occupies its cell and the next one; the next one is a
/// continuation cell with an empty grapheme. Combining marks join the grapheme before them.
struct Cell {
  std::string grapheme = " ";      ///< UTF-8 text of the cell; empty for a continuation cell
  Role role = Role::Default;       ///< what the cell means (the theme gives its style)
  std::uint8_t attrs = kAttrNone;  ///< Attr bits added to the role's style

  /// True for the right half of a wide character.
  bool continuation() const { return grapheme.empty(); }
  bool operator==(const Cell&) const = default;
};

/// A w×h grid of cells. Drawing clips to the canvas and to the width a call is given.
class Canvas {
 public:
  /// A blank canvas (spaces, Role::Default).
  Canvas(int width, int height);

  /// Columns.
  int width() const { return width_; }
  /// Rows.
  int height() const { return height_; }
  /// The whole canvas as a Rect.
  Rect bounds() const { return {0, 0, width_, height_}; }
  /// The cell at (x, y); must be inside.
  const Cell& at(int x, int y) const { return cells_[index(x, y)]; }

  /// Resets every cell to blank.
  void clear();
  /// Sets every cell of `r` (clipped) to `grapheme` (one cell wide; U+FFFD unless inert) with
  /// `role`.
  void fill(Rect r, Role role, std::string_view grapheme = " ");
  /// Changes the role of every cell of `r` (clipped), keeping text.
  void set_role(Rect r, Role role);
  /// Adds attribute bits to the cell at (x, y) when inside.
  void add_attrs(int x, int y, std::uint8_t attrs);
  /// Draws text from (x, y), at most `max_width` cells and never past the canvas edge; a wide
  /// character that does not fit is left out. The text is drawn in its drawable form (text.hpp):
  /// controls, escapes, bidi and invisible characters become inert placeholders with cells of
  /// their own, line breaks ` ⏎ `. Returns cells used.
  int draw_text(int x, int y, std::string_view text, Role role, int max_width);
  /// Like draw_text, but ends in `…` when the text is longer than `max_width`.
  int draw_text_truncated(int x, int y, std::string_view text, Role role, int max_width);
  /// Draws text aligned within [x, x+width), truncating with `…`; returns the start column.
  int draw_aligned(int x, int y, std::string_view text, Role role, int width, Align align);
  /// Puts one grapheme of `cell_width` 1 or 2 cells at (x, y), repairing any wide character
  /// it overwrites half of. Does nothing when it does not fit; a grapheme that is not inert text
  /// is drawn as U+FFFD.
  void put(int x, int y, std::string_view grapheme, int cell_width, Role role);

  /// Replaces every cell's glyph by its ASCII stand-in (ascii.hpp); a wide character becomes
  /// two `?` cells. For a terminal that cannot show UTF-8.
  void to_ascii();

  /// Rows joined by '\n', trailing spaces of each row trimmed (for snapshots).
  std::string to_text() const;
  /// One role_letter per cell, rows joined by '\n' (for snapshots).
  std::string to_role_map() const;

 private:
  std::size_t index(int x, int y) const { return static_cast<std::size_t>(y * width_ + x); }
  Cell& cell(int x, int y) { return cells_[index(x, y)]; }
  bool inside(int x, int y) const { return x >= 0 && y >= 0 && x < width_ && y < height_; }
  void unsplit(int x, int y);
  void join_mark(int first_x, int cx, int y, std::string_view mark);
  static std::string inert_grapheme(std::string_view grapheme);

  // Bytes one cell may hold: a base character and a few combining marks.
  static constexpr std::size_t kMaxGraphemeBytes = 32;

  int width_;
  int height_;
  std::vector<Cell> cells_;
};

}  // namespace trainyard
