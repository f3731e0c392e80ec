#include "widgets/prompt.hpp"

#include "widgets/line_edit.hpp"

namespace trainyard {

void render_command_line(const CommandLineVm& vm, Canvas& canvas, Rect r) {
  if (r.empty()) return;
  Rect row = r.top(1);
  canvas.fill(row, Role::Input);
  int pw = canvas.draw_text(row.x, row.y, vm.prompt, Role::KeyHint, row.w);
  int cand_w = vm.candidates.empty() ? 0 : text_width(vm.candidates) + 2;
  if (cand_w > 0 && cand_w < row.w / 2) {
    canvas.draw_text(row.right() - cand_w + 2, row.y, vm.candidates, Role::InputHint, cand_w - 2);
  } else {
    cand_w = 0;
  }
  Rect input = row.drop_left(pw);
  input.w -= cand_w;
  int cx = draw_input(canvas, input, vm.text, vm.cursor, Role::Input, true);
  if (vm.cursor == vm.text.size() && !vm.hint.empty()) {
    // The hint starts under the cursor, as shells draw autosuggestions.
    canvas.draw_text(cx, row.y, vm.hint, Role::InputHint, input.right() - cx);
    canvas.set_role({cx, row.y, 1, 1}, Role::InputCursor);
  }
}

void render_filter_line(const FilterLineVm& vm, Canvas& canvas, Rect r) {
  if (r.empty()) return;
  Rect row = r.top(1);
  canvas.fill(row, Role::Input);
  int pw = canvas.draw_text(row.x, row.y, "/", Role::KeyHint, row.w);
  std::string count = vm.matches == 0   ? "no matches"
                      : vm.matches == 1 ? "1 match"
                                        : std::to_string(vm.matches) + " matches";
  int count_w = text_width(count);
  Rect input = row.drop_left(pw);
  if (count_w + 2 < input.w / 2 + 1) {
    Role role = vm.matches == 0 && !vm.text.empty() ? Role::ValidationError : Role::Dim;
    canvas.draw_text(row.right() - count_w, row.y, count, role, count_w);
    input.w -= count_w + 2;
  }
  draw_input(canvas, input, vm.text, vm.cursor, Role::Input, vm.editing);
}

}  // namespace trainyard
