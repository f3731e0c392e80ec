// Forms: labelled text fields with focus and validation.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "widgets/canvas.hpp"
#include "widgets/line_edit.hpp"

namespace trainyard {

/// Checks a field value: an error message, or nullopt when valid.
using Validator = std::function<std::optional<std::string>(const std::string&)>;

/// One field.
struct FormField {
  std::string label;        ///< label left of the field
  LineEdit edit;            ///< value and cursor
  std::string placeholder;  ///< dimmed text while the value is empty
  Validator validate;       ///< optional check run on submit
};

/// A form model: fields, focus and the validation error; render it with render_form.
class Form {
 public:
  std::string title;              ///< box title
  std::vector<FormField> fields;  ///< fields, top to bottom
  int focus = 0;                  ///< focused field
  std::string error;              ///< validation error shown under the fields

  /// Adds a field.
  Form& add(std::string label, std::string value = {}, std::string placeholder = {},
            Validator validate = {});
  /// The value of the field with this label ("" if none).
  std::string value(const std::string& label) const;
  /// Tab/Down: next field; BackTab/Up: previous; Enter: validate all and Submit, or show the
  /// first error and focus its field; Escape: Cancel; other keys edit the focused field.
  Reaction handle(const KeyEvent& key);

 private:
  void move_focus(int delta);
  Reaction submit();
};

/// Draws the form as a box centred in `area`.
void render_form(const Form& form, Canvas& canvas, Rect area);

}  // namespace trainyard
