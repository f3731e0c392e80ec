#include "widgets/dialog.hpp"

#include <algorithm>

#include "widgets/box.hpp"

namespace trainyard {
namespace {

char32_t lower(char32_t c) {
  return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

int button_index_for(const DialogVm& vm, char32_t ch) {
  for (std::size_t i = 0; i < vm.buttons.size(); ++i) {
    const auto& b = vm.buttons[i];
    if (!b.empty() && lower(static_cast<unsigned char>(b[0])) == lower(ch)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

int buttons_width(const DialogVm& vm) {
  int w = 0;
  for (const auto& b : vm.buttons) w += text_width(b) + 4 + 2;
  return std::max(0, w - 2);
}

void move(DialogVm& vm, int delta) {
  int n = static_cast<int>(vm.buttons.size());
  if (n > 0) vm.focused = ((vm.focused + delta) % n + n) % n;
}

// On the bottom border, which button Enter takes: a colour alone does not say it on a mono or
// ASCII terminal.
void draw_enter_hint(const DialogVm& vm, Canvas& canvas, Rect box) {
  if (vm.focused < 0 || vm.focused >= static_cast<int>(vm.buttons.size())) return;
  std::string hint = " Enter: " + vm.buttons[static_cast<std::size_t>(vm.focused)] + " ";
  int w = text_width(hint);
  if (w + 4 > box.w || box.h < 2) return;
  canvas.draw_text(box.right() - w - 2, box.bottom() - 1, hint, Role::DialogTitle, w);
}

}  // namespace

Reaction handle_dialog_key(DialogVm& vm, const KeyEvent& key) {
  switch (key.key) {
    case Key::Left:
    case Key::BackTab:
      move(vm, -1);
      return Reaction::Handled;
    case Key::Right:
    case Key::Tab:
      move(vm, 1);
      return Reaction::Handled;
    case Key::Enter:
      return Reaction::Submit;
    case Key::Escape:
      return Reaction::Cancel;
    default:
      break;
  }
  if (!key.is_text()) return Reaction::Ignored;
  if (key.ch == 'h' || key.ch == 'l') {
    move(vm, key.ch == 'h' ? -1 : 1);
    return Reaction::Handled;
  }
  int index = button_index_for(vm, key.ch);
  if (index < 0) return Reaction::Ignored;
  vm.focused = index;
  return Reaction::Submit;
}

void render_dialog(const DialogVm& vm, Canvas& canvas, Rect area) {
  int want = std::max({text_width(vm.title) + 6, buttons_width(vm) + 4, 36});
  int w = std::min(area.w, std::min(want + text_width(vm.message) / 2, 60));
  auto lines = wrap_words(vm.message, w - 4);
  int h = std::min(area.h, static_cast<int>(lines.size()) + 5);
  Rect box = area.centered(w, h);
  Rect inner =
      draw_box(canvas, box, Role::BorderFocused, Role::Dialog, vm.title, Role::DialogTitle);
  for (std::size_t i = 0; i < lines.size() && static_cast<int>(i) + 3 < inner.h; ++i) {
    canvas.draw_text(inner.x + 1, inner.y + 1 + static_cast<int>(i), lines[i], Role::Dialog,
                     inner.w - 2);
  }
  int x = inner.x + std::max(0, (inner.w - buttons_width(vm)) / 2);
  int y = inner.bottom() - 1;
  for (std::size_t i = 0; i < vm.buttons.size(); ++i) {
    Role role = static_cast<int>(i) == vm.focused ? Role::ButtonFocused : Role::Button;
    x += canvas.draw_text(x, y, "[ " + vm.buttons[i] + " ]", role, inner.right() - x) + 2;
  }
  draw_enter_hint(vm, canvas, box);
}

}  // namespace trainyard
