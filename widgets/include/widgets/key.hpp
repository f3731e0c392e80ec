// Key input shared by widgets, the app's keymap and the terminals.
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace trainyard {

/// Which key: a character, or a named key.
enum class Key {
  Char,  ///< a Unicode character in KeyEvent::ch
  Up,
  Down,
  Left,
  Right,
  PageUp,
  PageDown,
  Home,
  End,
  Insert,
  Enter,
  Escape,
  Tab,
  BackTab,  ///< Shift-Tab
  Backspace,
  Delete,
  F1,
  F2,
  F3,
  F4,
  F5,
  F6,
  F7,
  F8,
  F9,
  F10,
  F11,
  F12,
  Resize,     ///< the terminal changed size
  Click,      ///< the first mouse button pressed at KeyEvent::x, y
  WheelUp,    ///< the mouse wheel rolled up (away from the user) at x, y
  WheelDown,  ///< the mouse wheel rolled down at x, y
};

/// One key press. Ctrl-letters are Key::Char with ctrl set and `ch` the lower-case letter.
struct KeyEvent {
  Key key = Key::Char;  ///< which key
  char32_t ch = 0;      ///< the character when key == Key::Char
  bool ctrl = false;    ///< Control held
  bool alt = false;     ///< Alt/Meta held
  int x = 0;            ///< a mouse event's column (0: the leftmost)
  int y = 0;            ///< a mouse event's row (0: the top)

  /// A printable character.
  static constexpr KeyEvent character(char32_t c) { return {Key::Char, c, false, false}; }
  /// A named key.
  static constexpr KeyEvent named(Key k) { return {k, 0, false, false}; }
  /// A mouse event (Key::Click, WheelUp or WheelDown) at column `x`, row `y`.
  static constexpr KeyEvent mouse(Key k, int x, int y) { return {k, 0, false, false, x, y}; }
  /// True for a mouse event.
  bool is_mouse() const {
    return key == Key::Click || key == Key::WheelUp || key == Key::WheelDown;
  }
  /// Control plus a letter (`ctrl_char('c')` is C-c).
  static constexpr KeyEvent ctrl_char(char32_t c) { return {Key::Char, c, true, false}; }
  /// True for an unmodified printable character.
  bool is_text() const { return key == Key::Char && !ctrl && !alt && ch >= 0x20 && ch != 0x7F; }
  bool operator==(const KeyEvent&) const = default;
};

/// What a widget did with a key.
enum class Reaction {
  Ignored,  ///< not for this widget: pass it on
  Handled,  ///< consumed; redraw
  Submit,   ///< the user confirmed (Enter, a Yes button)
  Cancel,   ///< the user backed out (Escape, a No button)
};

/// Parses a tmux `send-keys` key name: `Enter`, `Escape`, `Up`, `C-c`, `M-x`, `BSpace`, `Tab`,
/// `BTab`, `PPage`/`PageUp`, `NPage`/`PageDown`, `Home`, `End`, `DC`, `IC`, `Space`, `F1`..`F12`,
/// or a single (UTF-8) character. Unknown names give nullopt.
std::optional<KeyEvent> parse_key_name(std::string_view name);
/// The tmux-style name of a key (`C-c`, `Enter`, `q`, `Space`); parse_key_name's inverse. Mouse
/// events are named (`Click`, `WheelUp`, `WheelDown`) but not parsed: no key binds to them.
std::string key_name(const KeyEvent& key);

}  // namespace trainyard
