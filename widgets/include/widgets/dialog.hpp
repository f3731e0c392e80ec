// Confirmation dialogs.
#pragma once

#include <string>
#include <vector>

#include "widgets/canvas.hpp"
#include "widgets/key.hpp"

namespace trainyard {

/// A modal question with buttons; also its own model (see handle_dialog_key).
struct DialogVm {
  std::string title;                              ///< box title
  std::string message;                            ///< question, word-wrapped
  std::vector<std::string> buttons{"Yes", "No"};  ///< button labels
  int focused = 1;                                ///< focused button (default No: safe)
};

/// Left/Right/Tab/BackTab/h/l move the focus; Enter → Submit (read vm.focused); Escape →
/// Cancel; a button's first letter focuses it and submits.
Reaction handle_dialog_key(DialogVm& vm, const KeyEvent& key);
/// Draws the dialog as a box centred in `area`.
void render_dialog(const DialogVm& vm, Canvas& canvas, Rect area);

}  // namespace trainyard
