// A virtualised table: the caller passes only the visible rows and the total count.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "widgets/canvas.hpp"

namespace trainyard {

/// How a cell too long for its column is cut.
enum class Cut {
  End,       ///< `resnet-sw…`
  Middle,    ///< ids: the distinguishing end stays (`experiment-res…-0002`)
  LastWord,  ///< a name and a number: the number stays whole (`val_l… 0.1720`)
};

/// One column's layout.
struct Column {
  std::string title;          ///< header text
  int width = 0;              ///< fixed width in cells; 0 means sized by flex
  int min_width = 1;          ///< least width of a flex column
  int flex = 0;               ///< share of the spare width (flex columns only)
  Align align = Align::Left;  ///< alignment of header and cells
  /// Width with short forms (TableCell::short_text); 0: the column has none. A table too
  /// narrow for every column at full width draws such columns at this width, short forms in.
  int short_width = 0;
  /// When the table is too narrow: 0, never dropped; else dropped, highest first, before an
  /// identifying flex column (drop 0) is cut below its content's width.
  int drop = 0;
  Cut cut = Cut::End;
};

/// One cell; `role` (e.g. a state colour) applies when the row is not selected.
struct TableCell {
  std::string text;          ///< sanitized text
  std::optional<Role> role;  ///< overrides the row role
  std::string short_text;    ///< what a column at its short width shows; empty: `text`
};

/// One row: a cell per column.
struct TableRow {
  std::vector<TableCell> cells;  ///< cells, in column order
};

/// What the table shows.
struct TableVm {
  std::vector<Column> columns;          ///< column layout
  std::vector<TableRow> rows;           ///< visible rows only; rows[0] is row number first_row
  std::size_t first_row = 0;            ///< index of rows[0] among all rows (scroll offset)
  std::size_t total_rows = 0;           ///< number of rows in the whole table
  std::optional<std::size_t> selected;  ///< index of the selected row among all rows
  bool focused = true;                  ///< selection drawn as RowSelected (else ...Unfocused)
  std::string empty_text = "no rows";   ///< shown when total_rows is 0
};

/// Rows of table body that fit in `r` (one row is the header).
int table_body_height(Rect r);
/// The first_row that keeps `selected` visible with the least scrolling.
std::size_t scroll_to_show(std::size_t selected, std::size_t first_row, int body_height,
                           std::size_t total_rows);
/// Column widths for `width` cells with one space between columns. Fixed columns get their
/// width and flex columns at least min_width; a flex column that is never dropped (drop 0)
/// also asks for its content's width (`wants`, one per column; at most 2/5 of the table).
/// While that does not fit, the droppable columns go, highest drop first (width 0, no gap).
/// The room left grows flex columns towards their content, the never-dropped first, then is
/// shared by flex weight; columns that still do not fit get 0 and the last visible one is cut.
std::vector<int> layout_columns(const std::vector<Column>& columns, int width,
                                const std::vector<int>& wants = {});
/// True when `width` cells are too few for every column at full width with the flex columns
/// given at least the room that short forms would free: columns with a short_width then use
/// it (enum values in their short forms rather than cut mid-word).
bool use_short_forms(const std::vector<Column>& columns, int width);
/// Draws the header (with the position `sel/total` at its right end), the rows and, when not
/// all rows fit, a scrollbar in the last column.
void render_table(const TableVm& vm, Canvas& canvas, Rect r);

}  // namespace trainyard
