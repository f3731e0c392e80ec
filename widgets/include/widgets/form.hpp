// Forms: labelled text fields with focus and validation.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <utility>
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
  /// What the field sets in the request a service gets (`vmSize`): a service error naming that
  /// property shows under this field.
  std::string property;
  std::string error;  ///< why the value was refused, shown under the field
};

class Form;

/// A check of the whole form, run after the fields' own: the label of the field at fault and
/// why, or nullopt when the form is valid.
using FormCheck = std::function<std::optional<std::pair<std::string, std::string>>(const Form&)>;

/// A form model: fields, focus and the validation error; render it with render_form.
class Form {
 public:
  std::string title;              ///< box title
  std::vector<FormField> fields;  ///< fields, top to bottom
  int focus = 0;                  ///< focused field
  std::string error;              ///< an error that concerns no one field, shown under them
  std::vector<std::string> note;  ///< lines shown under the fields (a result, a hint)
  std::string keys_hint;          ///< extra keys for the hint line (`^O edit JSON`)
  FormCheck check;                ///< optional whole-form check run on submit

  /// Adds a field.
  Form& add(std::string label, std::string value = {}, std::string placeholder = {},
            Validator validate = {});
  /// Sets the service property of the last added field (see FormField::property).
  Form& sets(std::string property);
  /// The value of the field with this label ("" if none).
  std::string value(const std::string& label) const;
  /// Shows `message` under the field that sets `property` (equal, or a dotted path ending or
  /// starting with it) and focuses it; under the form when no field does. Clears other errors.
  void show_error(const std::string& property, std::string message);
  /// Shows `message` under the field with this label (under the form when none has it).
  void show_field_error(const std::string& label, std::string message);
  /// Clears every error.
  void clear_errors();
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
