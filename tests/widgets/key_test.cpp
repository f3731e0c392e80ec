#include "widgets/key.hpp"

#include <gtest/gtest.h>

#include "widgets/line_edit.hpp"

namespace trainyard::key_test {
namespace {

TEST(Key, ParsesTmuxNames) {
  EXPECT_EQ(parse_key_name("Enter"), KeyEvent::named(Key::Enter));
  EXPECT_EQ(parse_key_name("Escape"), KeyEvent::named(Key::Escape));
  EXPECT_EQ(parse_key_name("Up"), KeyEvent::named(Key::Up));
  EXPECT_EQ(parse_key_name("BSpace"), KeyEvent::named(Key::Backspace));
  EXPECT_EQ(parse_key_name("Tab"), KeyEvent::named(Key::Tab));
  EXPECT_EQ(parse_key_name("BTab"), KeyEvent::named(Key::BackTab));
  EXPECT_EQ(parse_key_name("PPage"), KeyEvent::named(Key::PageUp));
  EXPECT_EQ(parse_key_name("NPage"), KeyEvent::named(Key::PageDown));
  EXPECT_EQ(parse_key_name("Home"), KeyEvent::named(Key::Home));
  EXPECT_EQ(parse_key_name("End"), KeyEvent::named(Key::End));
  EXPECT_EQ(parse_key_name("F5"), KeyEvent::named(Key::F5));
  EXPECT_EQ(parse_key_name("Space"), KeyEvent::character(' '));
  EXPECT_EQ(parse_key_name("q"), KeyEvent::character('q'));
  EXPECT_EQ(parse_key_name("C"), KeyEvent::character('C'));
  EXPECT_EQ(parse_key_name("-"), KeyEvent::character('-'));
  EXPECT_EQ(parse_key_name("é"), KeyEvent::character(U'é'));
  EXPECT_EQ(parse_key_name("C-c"), KeyEvent::ctrl_char('c'));
  EXPECT_EQ(parse_key_name("C-C"), KeyEvent::ctrl_char('c'));
  KeyEvent alt_up = KeyEvent::named(Key::Up);
  alt_up.alt = true;
  EXPECT_EQ(parse_key_name("M-Up"), alt_up);
  EXPECT_FALSE(parse_key_name("").has_value());
  EXPECT_FALSE(parse_key_name("Bogus").has_value());
}

TEST(Key, NamesRoundTrip) {
  for (const char* name :
       {"Enter", "C-c", "q", "Space", "PPage", "NPage", "BTab", "BSpace", "F12", "M-x"}) {
    auto key = parse_key_name(name);
    ASSERT_TRUE(key.has_value()) << name;
    EXPECT_EQ(key_name(*key), name);
  }
}

TEST(LineEdit, EditsAtTheCursor) {
  LineEdit e("pool");
  EXPECT_EQ(e.handle(KeyEvent::character('s')), Reaction::Handled);
  EXPECT_EQ(e.text(), "pools");
  e.handle(KeyEvent::named(Key::Home));
  e.handle(KeyEvent::character(U'日'));
  EXPECT_EQ(e.text(), "日pools");
  EXPECT_EQ(e.cursor(), 3u);
  e.handle(KeyEvent::named(Key::Backspace));
  EXPECT_EQ(e.text(), "pools");
  e.handle(KeyEvent::named(Key::Delete));
  EXPECT_EQ(e.text(), "ools");
  e.handle(KeyEvent::named(Key::End));
  e.handle(KeyEvent::named(Key::Left));
  e.handle(KeyEvent::ctrl_char('k'));
  EXPECT_EQ(e.text(), "ool");
  e.set_text("run train.py --lr");
  e.handle(KeyEvent::ctrl_char('w'));
  EXPECT_EQ(e.text(), "run train.py ");
  e.handle(KeyEvent::ctrl_char('u'));
  EXPECT_EQ(e.text(), "");
  EXPECT_EQ(e.handle(KeyEvent::named(Key::Enter)), Reaction::Submit);
  EXPECT_EQ(e.handle(KeyEvent::named(Key::Escape)), Reaction::Cancel);
  EXPECT_EQ(e.handle(KeyEvent::named(Key::PageDown)), Reaction::Ignored);
}

}  // namespace
}  // namespace trainyard::key_test
