#include "widgets/bars.hpp"

namespace trainyard {
namespace {

constexpr std::string_view kSeparator = " › ";

// `[origin] message`; a stale one says so in words, which mono terminals show too. Where both
// do not fit in `room` cells, the message keeps the room (and a stale one its mark).
std::string message_text(const StatusBarVm& vm, int room) {
  if (vm.origin.empty() && !vm.message_stale) return vm.message;
  std::string label = vm.origin;
  if (vm.message_stale) label += label.empty() ? "earlier" : ", earlier";
  std::string text = "[" + label + "] " + vm.message;
  if (vm.origin.empty() || text_width(text) <= room) return text;
  return vm.message_stale ? "[earlier] " + vm.message : vm.message;
}

Role message_role(StatusLevel level) {
  switch (level) {
    case StatusLevel::Ok:
      return Role::StatusOk;
    case StatusLevel::Error:
      return Role::StatusError;
    case StatusLevel::Info:
      break;
  }
  return Role::StatusBar;
}

// Width of the crumbs from `first` on, with a leading "… › " when first > 0.
int crumbs_width(const std::vector<std::string>& parts, std::size_t first) {
  int w = first > 0 ? 1 + text_width(kSeparator) : 0;
  for (std::size_t i = first; i < parts.size(); ++i) {
    w += text_width(parts[i]) + (i + 1 < parts.size() ? text_width(kSeparator) : 0);
  }
  return w;
}

int draw_crumb_separator(Canvas& canvas, int x, int y, int limit) {
  return canvas.draw_text(x, y, kSeparator, Role::CrumbSeparator, limit - x);
}

}  // namespace

void render_status_bar(const StatusBarVm& vm, Canvas& canvas, Rect r) {
  if (r.empty()) return;
  Rect row = r.top(1);
  canvas.fill(row, Role::StatusBar);
  std::string age = vm.data_age ? "data " + format_age(*vm.data_age) + " old" : "no data";
  if (vm.stale && vm.data_age) age += " (stale)";
  int age_w = text_width(age);
  int right = row.right() - 1;
  // The data age outranks the message: it tells whether the screen can be trusted.
  if (age_w + 1 <= row.w * 2 / 3) {
    right -= age_w;
    canvas.draw_text(right, row.y, age, vm.stale ? Role::StatusStale : Role::StatusAge, age_w);
  }
  int note_w = text_width(vm.note);
  if (note_w > 0 && note_w + 2 <= right - row.x - row.w / 3) {
    right -= note_w + 2;
    canvas.draw_text(right, row.y, vm.note, Role::StatusAge, note_w);
  }
  if (vm.message.empty()) return;
  Role role = vm.message_stale ? Role::StatusAge : message_role(vm.level);
  std::string text = message_text(vm, right - 1 - row.x - 2);
  int msg_w = std::min(text_width(text) + 2, right - 1 - row.x);
  canvas.fill({row.x, row.y, msg_w, 1}, role);
  canvas.draw_text_truncated(row.x + 1, row.y, text, role, msg_w - 2);
}

void render_crumbs(const CrumbsVm& vm, Canvas& canvas, Rect r) {
  if (r.empty() || vm.parts.empty()) return;
  std::size_t first = 0;
  while (first + 1 < vm.parts.size() && crumbs_width(vm.parts, first) > r.w) ++first;
  int x = r.x, limit = r.right();
  if (first > 0) {
    x += canvas.draw_text(x, r.y, "…", Role::Crumb, limit - x);
    x += draw_crumb_separator(canvas, x, r.y, limit);
  }
  for (std::size_t i = first; i < vm.parts.size(); ++i) {
    bool last = i + 1 == vm.parts.size();
    Role role = last ? Role::CrumbCurrent : Role::Crumb;
    x += canvas.draw_text_truncated(x, r.y, vm.parts[i], role, limit - x);
    if (!last) x += draw_crumb_separator(canvas, x, r.y, limit);
  }
}

void render_hint_bar(const HintBarVm& vm, Canvas& canvas, Rect r) {
  if (r.empty()) return;
  int x = r.x;
  for (const auto& hint : vm.hints) {
    std::string key = "<" + hint.key + ">";
    int w = text_width(key) + 1 + text_width(hint.action);
    if (x + w > r.right()) continue;  // a shorter hint further on may still fit
    x += canvas.draw_text(x, r.y, key, Role::KeyHint, w);
    x += canvas.draw_text(x, r.y, " " + hint.action, Role::KeyHintAction, r.right() - x);
    x += 2;
  }
}

}  // namespace trainyard
