// A one-line text editor model, used by the command line, the filter line and form fields.
#pragma once

#include <cstddef>
#include <string>

#include "widgets/canvas.hpp"
#include "widgets/key.hpp"

namespace trainyard {

/// Text plus a cursor (a byte offset on a code point boundary), edited by keys.
class LineEdit {
 public:
  /// Starts with `text` and the cursor at its end.
  explicit LineEdit(std::string text = {});

  /// The text.
  const std::string& text() const { return text_; }
  /// Byte offset of the cursor in text().
  std::size_t cursor() const { return cursor_; }
  /// Replaces the text and puts the cursor at its end.
  void set_text(std::string text);
  /// Typing inserts; Backspace/Delete, Left/Right, Home/End (C-a/C-e), C-u (clear to start),
  /// C-k (clear to end) and C-w (delete word) edit. Enter → Submit, Escape → Cancel; other
  /// keys → Ignored.
  Reaction handle(const KeyEvent& key);

 private:
  std::size_t prev_boundary(std::size_t pos) const;
  std::size_t next_boundary(std::size_t pos) const;
  Reaction handle_named(Key key);
  Reaction handle_ctrl(char32_t ch);

  std::string text_;
  std::size_t cursor_ = 0;
};

/// Draws `text` in one row of `r`, scrolled so the cursor is visible; when `show_cursor`,
/// the cell under the cursor gets Role::InputCursor. Returns the cursor's column.
int draw_input(Canvas& canvas, Rect r, const std::string& text, std::size_t cursor, Role role,
               bool show_cursor);

}  // namespace trainyard
