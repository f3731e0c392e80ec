#include "widgets/form.hpp"

#include <algorithm>

#include "widgets/box.hpp"

namespace trainyard {

Form& Form::add(std::string label, std::string value, std::string placeholder, Validator validate) {
  fields.push_back(
      {std::move(label), LineEdit(std::move(value)), std::move(placeholder), std::move(validate)});
  return *this;
}

Form& Form::sets(std::string property) {
  if (!fields.empty()) fields.back().property = std::move(property);
  return *this;
}

std::string Form::value(const std::string& label) const {
  for (const auto& f : fields) {
    if (f.label == label) return f.edit.text();
  }
  return {};
}

void Form::clear_errors() {
  error.clear();
  for (auto& f : fields) f.error.clear();
}

namespace {

// `imageReference` concerns the field that sets `virtualMachineConfiguration.imageReference`
// and the other way round: services name a property by its full path or its last part.
bool concerns(const std::string& field_property, const std::string& named) {
  if (field_property.empty() || named.empty()) return false;
  auto ends_with = [](const std::string& s, const std::string& tail) {
    return s.size() > tail.size() && s.compare(s.size() - tail.size(), tail.size(), tail) == 0 &&
           s[s.size() - tail.size() - 1] == '.';
  };
  return field_property == named || ends_with(field_property, named) ||
         ends_with(named, field_property) || named.rfind(field_property + ".", 0) == 0;
}

}  // namespace

void Form::show_error(const std::string& property, std::string message) {
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (concerns(fields[i].property, property)) {
      clear_errors();
      fields[i].error = std::move(message);
      focus = static_cast<int>(i);
      return;
    }
  }
  clear_errors();
  error = std::move(message);
}

void Form::show_field_error(const std::string& label, std::string message) {
  clear_errors();
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (fields[i].label != label) continue;
    fields[i].error = std::move(message);
    focus = static_cast<int>(i);
    return;
  }
  error = std::move(message);
}

void Form::move_focus(int delta) {
  int n = static_cast<int>(fields.size());
  if (n > 0) focus = ((focus + delta) % n + n) % n;
}

Reaction Form::submit() {
  for (auto& f : fields) {
    if (!f.validate) continue;
    if (auto err = f.validate(f.edit.text())) {
      show_field_error(f.label, *err);
      return Reaction::Handled;
    }
  }
  if (check) {
    if (auto problem = check(*this)) {
      show_field_error(problem->first, problem->second);
      return Reaction::Handled;
    }
  }
  clear_errors();
  return Reaction::Submit;
}

Reaction Form::handle(const KeyEvent& key) {
  switch (key.key) {
    case Key::Tab:
    case Key::Down:
      move_focus(1);
      return Reaction::Handled;
    case Key::BackTab:
    case Key::Up:
      move_focus(-1);
      return Reaction::Handled;
    case Key::Enter:
      return submit();
    case Key::Escape:
      return Reaction::Cancel;
    default:
      break;
  }
  if (focus < 0 || focus >= static_cast<int>(fields.size())) return Reaction::Ignored;
  return fields[static_cast<std::size_t>(focus)].edit.handle(key);
}

namespace {

int label_width(const Form& form) {
  int w = 0;
  for (const auto& f : form.fields) w = std::max(w, text_width(f.label));
  return w;
}

void draw_field(const FormField& field, bool focused, Canvas& canvas, Rect row, int label_w) {
  canvas.draw_aligned(row.x, row.y, field.label, Role::Label, label_w, Align::Right);
  Rect input = row.drop_left(label_w + 2);
  // The row under each field is empty but for its error.
  if (!field.error.empty())
    canvas.draw_text_truncated(input.x, row.y + 1, field.error, Role::ValidationError, input.w);
  canvas.fill(input, focused ? Role::InputFocused : Role::Input);
  if (field.edit.text().empty() && !field.placeholder.empty()) {
    canvas.draw_text_truncated(input.x, row.y, field.placeholder, Role::InputHint, input.w);
    if (focused) canvas.set_role(input.left(1), Role::InputCursor);
    return;
  }
  draw_input(canvas, input, field.edit.text(), field.edit.cursor(),
             focused ? Role::InputFocused : Role::Input, focused);
}

std::string hint_line(const Form& form) {
  std::string out = "Enter submit · Tab next · Esc cancel";
  return form.keys_hint.empty() ? out : out + " · " + form.keys_hint;
}

}  // namespace

void render_form(const Form& form, Canvas& canvas, Rect area) {
  const int notes = static_cast<int>(form.note.size());
  int h = std::min(area.h, static_cast<int>(form.fields.size()) * 2 + 5 + notes);
  Rect box = area.centered(std::min(area.w, 64), h);
  Rect inner =
      draw_box(canvas, box, Role::BorderFocused, Role::Dialog, form.title, Role::DialogTitle);
  Rect body = inner.inset(1);
  int label_w = std::min(label_width(form), body.w / 3);
  for (std::size_t i = 0; i < form.fields.size(); ++i) {
    int y = body.y + 2 * static_cast<int>(i);
    if (y >= body.bottom() - 1) break;
    draw_field(form.fields[i], static_cast<int>(i) == form.focus, canvas, {body.x, y, body.w, 1},
               label_w);
  }
  int bottom = inner.bottom() - 1;
  for (int i = 0; i < notes; ++i) {
    int y = bottom - 1 - notes + i;
    if (y >= body.y)
      canvas.draw_text_truncated(body.x, y, form.note[static_cast<std::size_t>(i)], Role::Dialog,
                                 body.w);
  }
  if (!form.error.empty()) {
    canvas.draw_text_truncated(body.x, bottom - 1, form.error, Role::ValidationError, body.w);
  }
  canvas.draw_text_truncated(body.x, bottom, hint_line(form), Role::Dim, body.w);
}

}  // namespace trainyard
