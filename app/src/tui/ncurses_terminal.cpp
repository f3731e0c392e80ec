// The only file that includes curses (architecture.md).
#include "ncurses_terminal.hpp"

#define NCURSES_WIDECHAR 1
#include <curses.h>

#include <clocale>
#include <cstdlib>
#include <exception>
#include <map>
#include <optional>
#include <vector>

namespace trainyard {
namespace {

// ncurses key codes → KeyEvent, as data.
const std::map<int, Key>& key_table() {
  static const std::map<int, Key> table{
      {KEY_UP, Key::Up},        {KEY_DOWN, Key::Down},     {KEY_LEFT, Key::Left},
      {KEY_RIGHT, Key::Right},  {KEY_PPAGE, Key::PageUp},  {KEY_NPAGE, Key::PageDown},
      {KEY_HOME, Key::Home},    {KEY_END, Key::End},       {KEY_IC, Key::Insert},
      {KEY_DC, Key::Delete},    {KEY_ENTER, Key::Enter},   {KEY_BACKSPACE, Key::Backspace},
      {KEY_BTAB, Key::BackTab}, {KEY_RESIZE, Key::Resize}, {KEY_F(1), Key::F1},
      {KEY_F(2), Key::F2},      {KEY_F(3), Key::F3},       {KEY_F(4), Key::F4},
      {KEY_F(5), Key::F5},      {KEY_F(6), Key::F6},       {KEY_F(7), Key::F7},
      {KEY_F(8), Key::F8},      {KEY_F(9), Key::F9},       {KEY_F(10), Key::F10},
      {KEY_F(11), Key::F11},    {KEY_F(12), Key::F12},
  };
  return table;
}

std::optional<KeyEvent> decode_char(wint_t ch) {
  if (ch == '\n' || ch == '\r') return KeyEvent::named(Key::Enter);
  if (ch == '\t') return KeyEvent::named(Key::Tab);
  if (ch == 27) return KeyEvent::named(Key::Escape);
  if (ch == 127 || ch == 8) return KeyEvent::named(Key::Backspace);
  if (ch >= 1 && ch <= 26) return KeyEvent::ctrl_char(static_cast<char32_t>('a' + ch - 1));
  if (ch < 32) return std::nullopt;
  return KeyEvent::character(static_cast<char32_t>(ch));
}

// The mouse events the TUI uses: a press of the first button (acted on at once, so no click
// waits for a possible double click) and the wheel, which curses reports as buttons 4 and 5.
mmask_t wanted_mouse_events() {
  mmask_t m = BUTTON1_PRESSED | BUTTON4_PRESSED;
#if NCURSES_MOUSE_VERSION > 1
  m |= BUTTON5_PRESSED;
#endif
  return m;
}

std::optional<KeyEvent> decode_mouse(const MEVENT& ev) {
  if (ev.bstate & BUTTON1_PRESSED) return KeyEvent::mouse(Key::Click, ev.x, ev.y);
  if (ev.bstate & BUTTON4_PRESSED) return KeyEvent::mouse(Key::WheelUp, ev.x, ev.y);
#if NCURSES_MOUSE_VERSION > 1
  if (ev.bstate & BUTTON5_PRESSED) return KeyEvent::mouse(Key::WheelDown, ev.x, ev.y);
#endif
  return std::nullopt;
}

std::optional<KeyEvent> read_mouse() {
  MEVENT ev{};
  if (getmouse(&ev) != OK) return std::nullopt;
  return decode_mouse(ev);
}

std::terminate_handler g_previous_terminate = nullptr;

// An exception that escapes a thread ends the process through std::terminate: the terminal is
// given back first, so the message lands on a usable screen.
[[noreturn]] void restore_then_terminate() {
  endwin();
  if (g_previous_terminate) g_previous_terminate();
  std::abort();
}

short curses_color(const Color& c) {
  if (c.is_default()) return -1;
  if (c.kind == Color::Kind::Index) return static_cast<short>(c.index);
  return static_cast<short>(nearest_256(c.r, c.g, c.b));
}

class NcursesTerminal final : public Terminal {
 public:
  NcursesTerminal(const Theme& theme, bool mouse) {
    std::setlocale(LC_ALL, "");
    // Esc must feel instant over SSH; the default waits a whole second for a sequence.
    set_escdelay(25);
    initscr();
    raw();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    nodelay(stdscr, TRUE);
    curs_set(0);
    if (mouse) {
      mousemask(wanted_mouse_events(), nullptr);
      mouseinterval(0);
    }
    depth_ = terminal_color_depth();
    if (depth_ != ColorDepth::Mono && has_colors()) {
      start_color();
      use_default_colors();
    } else {
      depth_ = ColorDepth::Mono;
    }
    theme_ = downgrade_theme(theme, depth_ == ColorDepth::TrueColor ? ColorDepth::Ansi256 : depth_);
    attrs_.assign(kRoleCount, A_NORMAL);
    for (size_t i = 0; i < kRoleCount; ++i)
      attrs_[i] = attr_for(theme_.style(static_cast<Role>(i)));
    g_previous_terminate = std::set_terminate(restore_then_terminate);
  }
  ~NcursesTerminal() override {
    std::set_terminate(g_previous_terminate);
    endwin();
  }

  TermSize size() const override {
    int h = 0, w = 0;
    getmaxyx(stdscr, h, w);
    return {w, h};
  }

  // Only rows that differ from the last frame go to curses: a cell costs an attrset and an
  // addstr, and a followed log changes a few rows of a 200x60 screen.
  void present(const Canvas& canvas) override {
    int h = std::min(canvas.height(), size().height), w = std::min(canvas.width(), size().width);
    bool same_shape = shown_ && shown_->width() == canvas.width() &&
                      shown_->height() == canvas.height() && shown_w_ == w && shown_h_ == h;
    for (int y = 0; y < h; ++y)
      if (!same_shape || !same_row(*shown_, canvas, y, w)) draw_row(canvas, y, w);
    wnoutrefresh(stdscr);
    doupdate();
    shown_ = canvas;
    shown_w_ = w;
    shown_h_ = h;
  }

  std::optional<KeyEvent> read_key() override {
    for (;;) {
      wint_t ch = 0;
      int rc = wget_wch(stdscr, &ch);
      if (rc == ERR) return std::nullopt;
      if (rc == KEY_CODE_YES && ch == KEY_MOUSE) {
        if (auto m = read_mouse()) return m;
        continue;
      }
      if (rc == KEY_CODE_YES) {
        if (ch == KEY_RESIZE) shown_.reset();  // curses may have cleared what it held
        auto it = key_table().find(static_cast<int>(ch));
        if (it != key_table().end()) return KeyEvent::named(it->second);
        continue;
      }
      if (auto k = decode_char(ch)) return k;
    }
  }

  int input_fd() const override { return 0; }

  void suspend() override {
    def_prog_mode();
    endwin();
  }

  void resume() override {
    reset_prog_mode();
    // What the editor left on the screen is unknown to curses: the next refresh repaints all.
    clearok(curscr, TRUE);
    refresh();
    shown_.reset();
  }

 private:
  attr_t attr_for(const Style& s) {
    attr_t a = A_NORMAL;
    if (s.bold) a |= A_BOLD;
    if (s.underline) a |= A_UNDERLINE;
    if (s.reverse) a |= A_REVERSE;
    if (s.dim) a |= A_DIM;
    if (depth_ == ColorDepth::Mono || (s.fg.is_default() && s.bg.is_default())) return a;
    return a | COLOR_PAIR(pair_for(curses_color(s.fg), curses_color(s.bg)));
  }

  // Colour pairs are allocated lazily, one per distinct (fg, bg).
  short pair_for(short fg, short bg) {
    auto key = std::pair{fg, bg};
    if (auto it = pairs_.find(key); it != pairs_.end()) return it->second;
    short id = static_cast<short>(pairs_.size() + 1);
    if (id >= COLOR_PAIRS) return 0;
    init_pair(id, fg, bg);
    pairs_[key] = id;
    return id;
  }

  static bool same_row(const Canvas& a, const Canvas& b, int y, int w) {
    for (int x = 0; x < w; ++x)
      if (!(a.at(x, y) == b.at(x, y))) return false;
    return true;
  }

  void draw_row(const Canvas& canvas, int y, int w) {
    for (int x = 0; x < w; ++x) {
      const Cell& c = canvas.at(x, y);
      if (c.continuation()) continue;
      attr_t a = attrs_[static_cast<size_t>(c.role)];
      if (c.attrs & kAttrBold) a |= A_BOLD;
      if (c.attrs & kAttrUnderline) a |= A_UNDERLINE;
      if (c.attrs & kAttrReverse) a |= A_REVERSE;
      attrset(a);
      mvaddstr(y, x, c.grapheme.c_str());
    }
  }

  ColorDepth depth_ = ColorDepth::Ansi256;
  Theme theme_;
  std::vector<attr_t> attrs_;
  std::map<std::pair<short, short>, short> pairs_;
  std::optional<Canvas> shown_;  ///< the last frame presented; none: curses' screen is unknown
  int shown_w_ = 0, shown_h_ = 0;
};

const char* env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? v : "";
}

}  // namespace

ColorDepth terminal_color_depth() {
  return detect_color_depth(env_or_empty("TERM"), env_or_empty("COLORTERM"),
                            env_or_empty("NO_COLOR"));
}

std::unique_ptr<Terminal> make_ncurses_terminal(const Theme& theme, bool mouse) {
  return std::make_unique<NcursesTerminal>(theme, mouse);
}

}  // namespace trainyard
