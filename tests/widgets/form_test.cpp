#include "widgets/form.hpp"

#include <gtest/gtest.h>

#include "snapshot.hpp"

namespace trainyard::form_test {
namespace {

std::optional<std::string> positive_int(const std::string& s) {
  if (s.empty() || s.find_first_not_of("0123456789") != std::string::npos || s == "0") {
    return "must be a positive number";
  }
  return std::nullopt;
}

Form new_task_form() {
  Form f;
  f.title = "New task";
  f.add("Task id", "", "task-1")
      .add("Command", "python train.py")
      .add("GPUs", "1", "", positive_int);
  return f;
}

void type(Form& f, std::string_view text) {
  for (std::size_t pos = 0; pos < text.size();)
    f.handle(KeyEvent::character(decode_utf8(text, pos)));
}

TEST(Form, Initial) {
  Canvas c(50, 11);
  render_form(new_task_form(), c, c.bounds());
  snapshot::expect_snapshot(c, "form", "initial");
}

TEST(Form, TypingAndMovingFocus) {
  Form f = new_task_form();
  type(f, "lr-扫描");
  EXPECT_EQ(f.handle(KeyEvent::named(Key::Tab)), Reaction::Handled);
  type(f, " --lr 3e-4");
  f.handle(KeyEvent::named(Key::Down));
  f.handle(KeyEvent::named(Key::Up));
  EXPECT_EQ(f.focus, 1);
  EXPECT_EQ(f.value("Task id"), "lr-扫描");
  EXPECT_EQ(f.value("Command"), "python train.py --lr 3e-4");
  Canvas c(50, 11);
  render_form(f, c, c.bounds());
  snapshot::expect_snapshot(c, "form", "typed");
}

TEST(Form, ValidationErrorFocusesField) {
  Form f = new_task_form();
  f.handle(KeyEvent::named(Key::BackTab));
  EXPECT_EQ(f.focus, 2);
  f.handle(KeyEvent::named(Key::Backspace));
  type(f, "x");
  EXPECT_EQ(f.handle(KeyEvent::named(Key::BackTab)), Reaction::Handled);
  EXPECT_EQ(f.handle(KeyEvent::named(Key::Enter)), Reaction::Handled);
  EXPECT_EQ(f.focus, 2);
  EXPECT_EQ(f.fields[2].error, "must be a positive number");
  EXPECT_EQ(f.error, "");
  Canvas c(50, 11);
  render_form(f, c, c.bounds());
  snapshot::expect_snapshot(c, "form", "validation_error");
  f.handle(KeyEvent::named(Key::Backspace));
  type(f, "2");
  EXPECT_EQ(f.handle(KeyEvent::named(Key::Enter)), Reaction::Submit);
  EXPECT_EQ(f.fields[2].error, "");
  EXPECT_EQ(f.handle(KeyEvent::named(Key::Escape)), Reaction::Cancel);
}

// A service's error names the property (Batch's PropertyName): it shows under the field that
// sets it, the typed values untouched, and the field takes the focus.
TEST(Form, ServiceErrorUnderTheFieldItConcerns) {
  Form f = new_task_form();
  f.fields[2].property = "requiredSlots";
  f.fields[1].property = "commandLine";
  type(f, "t1");
  f.show_error("requiredSlots", "InvalidPropertyValue: too many slots");
  EXPECT_EQ(f.focus, 2);
  EXPECT_EQ(f.fields[2].error, "InvalidPropertyValue: too many slots");
  EXPECT_EQ(f.value("Task id"), "t1");
  Canvas c(50, 11);
  render_form(f, c, c.bounds());
  snapshot::expect_snapshot(c, "form", "service_error_under_field");
  // A dotted path that ends with the field's property concerns it too.
  f.show_error("task.commandLine", "MissingRequiredProperty");
  EXPECT_EQ(f.focus, 1);
  EXPECT_EQ(f.fields[2].error, "");
  EXPECT_EQ(f.fields[1].error, "MissingRequiredProperty");
  // A property no field sets: under the form.
  f.show_error("constraints", "InvalidPropertyValue");
  EXPECT_EQ(f.error, "InvalidPropertyValue");
  EXPECT_EQ(f.fields[1].error, "");
}

TEST(Form, WholeFormCheckPutsItsErrorUnderTheField) {
  Form f = new_task_form();
  f.check = [](const Form& form) -> std::optional<std::pair<std::string, std::string>> {
    if (form.value("Task id").empty()) return std::pair{"Task id", "needed with a command"};
    return std::nullopt;
  };
  EXPECT_EQ(f.handle(KeyEvent::named(Key::Enter)), Reaction::Handled);
  EXPECT_EQ(f.focus, 0);
  EXPECT_EQ(f.fields[0].error, "needed with a command");
  type(f, "t");
  EXPECT_EQ(f.handle(KeyEvent::named(Key::Enter)), Reaction::Submit);
}

TEST(Form, Narrow) {
  Form f = new_task_form();
  type(f, "a-rather-long-task-identifier");
  Canvas c(26, 11);
  render_form(f, c, c.bounds());
  snapshot::expect_snapshot(c, "form", "narrow");
}

}  // namespace
}  // namespace trainyard::form_test
