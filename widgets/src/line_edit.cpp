#include "widgets/line_edit.hpp"

namespace trainyard {
namespace {

bool is_continuation_byte(char c) {
  return (static_cast<unsigned char>(c) & 0xC0) == 0x80;
}

}  // namespace

LineEdit::LineEdit(std::string text) : text_(std::move(text)), cursor_(text_.size()) {}

void LineEdit::set_text(std::string text) {
  text_ = std::move(text);
  cursor_ = text_.size();
}

std::size_t LineEdit::prev_boundary(std::size_t pos) const {
  if (pos == 0) return 0;
  do --pos;
  while (pos > 0 && is_continuation_byte(text_[pos]));
  return pos;
}

std::size_t LineEdit::next_boundary(std::size_t pos) const {
  if (pos >= text_.size()) return text_.size();
  do ++pos;
  while (pos < text_.size() && is_continuation_byte(text_[pos]));
  return pos;
}

Reaction LineEdit::handle(const KeyEvent& key) {
  if (key.is_text()) {
    std::string bytes;
    append_utf8(bytes, key.ch);
    text_.insert(cursor_, bytes);
    cursor_ += bytes.size();
    return Reaction::Handled;
  }
  if (key.key == Key::Char && key.ctrl && !key.alt) return handle_ctrl(key.ch);
  if (key.key == Key::Char || key.alt) return Reaction::Ignored;
  return handle_named(key.key);
}

Reaction LineEdit::handle_named(Key key) {
  switch (key) {
    case Key::Backspace: {
      std::size_t start = prev_boundary(cursor_);
      text_.erase(start, cursor_ - start);
      cursor_ = start;
      return Reaction::Handled;
    }
    case Key::Delete:
      text_.erase(cursor_, next_boundary(cursor_) - cursor_);
      return Reaction::Handled;
    case Key::Left:
      cursor_ = prev_boundary(cursor_);
      return Reaction::Handled;
    case Key::Right:
      cursor_ = next_boundary(cursor_);
      return Reaction::Handled;
    case Key::Home:
      cursor_ = 0;
      return Reaction::Handled;
    case Key::End:
      cursor_ = text_.size();
      return Reaction::Handled;
    case Key::Enter:
      return Reaction::Submit;
    case Key::Escape:
      return Reaction::Cancel;
    default:
      return Reaction::Ignored;
  }
}

Reaction LineEdit::handle_ctrl(char32_t ch) {
  switch (ch) {
    case 'a':
      cursor_ = 0;
      return Reaction::Handled;
    case 'e':
      cursor_ = text_.size();
      return Reaction::Handled;
    case 'u':
      text_.erase(0, cursor_);
      cursor_ = 0;
      return Reaction::Handled;
    case 'k':
      text_.erase(cursor_);
      return Reaction::Handled;
    case 'w': {
      // Like a shell: spaces before the cursor, then the word before them.
      std::size_t start = cursor_;
      while (start > 0 && text_[start - 1] == ' ') --start;
      while (start > 0 && text_[start - 1] != ' ') --start;
      text_.erase(start, cursor_ - start);
      cursor_ = start;
      return Reaction::Handled;
    }
    default:
      return Reaction::Ignored;
  }
}

int draw_input(Canvas& canvas, Rect r, const std::string& text, std::size_t cursor, Role role,
               bool show_cursor) {
  if (r.empty()) return r.x;
  // Scroll right just enough that the cursor cell is the last visible one.
  std::size_t start = 0;
  while (start < cursor &&
         text_width(std::string_view(text).substr(start, cursor - start)) >= r.w) {
    decode_utf8(text, start);
  }
  std::string_view shown = std::string_view(text).substr(start);
  canvas.draw_text(r.x, r.y, shown, role, r.w);
  int cx = r.x + text_width(std::string_view(text).substr(start, cursor - start));
  if (show_cursor && cx < r.right()) canvas.set_role({cx, r.y, 1, 1}, Role::InputCursor);
  return cx;
}

}  // namespace trainyard
