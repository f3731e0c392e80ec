#include "widgets/text.hpp"

#include <gtest/gtest.h>

namespace trainyard::text_test {
namespace {

TEST(Text, WidthsFollowWcwidthInUtf8) {
  EXPECT_EQ(text_width("abc"), 3);
  EXPECT_EQ(text_width("日本"), 4);
  EXPECT_EQ(text_width("🚀"), 2);
  EXPECT_EQ(text_width("e\u0301"), 1);  // combining acute accent
  EXPECT_EQ(text_width("…"), 1);
  EXPECT_EQ(text_width("\x1b"), 2);    // controls are drawn as their placeholder, `^[`
  EXPECT_EQ(text_width("\u202E"), 8);  // `<U+202E>`
  EXPECT_EQ(truncate_to_width("\x07"
                              "abc",
                              4),
            "^Ga\u2026");
  EXPECT_EQ(codepoint_width(0x2800), 1);  // braille
}

TEST(Text, DecodesInvalidUtf8AsReplacement) {
  std::string bad =
      "a\xff"
      "b\xe6\x97";
  std::size_t pos = 0;
  EXPECT_EQ(decode_utf8(bad, pos), U'a');
  EXPECT_EQ(decode_utf8(bad, pos), 0xFFFDu);
  EXPECT_EQ(decode_utf8(bad, pos), U'b');
  EXPECT_EQ(decode_utf8(bad, pos), 0xFFFDu);
  std::string overlong = "\xc0\xaf";
  pos = 0;
  EXPECT_EQ(decode_utf8(overlong, pos), 0xFFFDu);
}

TEST(Text, AppendUtf8RoundTrips) {
  for (char32_t cp : {U'a', U'é', U'日', U'🚀'}) {
    std::string s;
    append_utf8(s, cp);
    std::size_t pos = 0;
    EXPECT_EQ(decode_utf8(s, pos), cp);
    EXPECT_EQ(pos, s.size());
  }
}

TEST(Text, Truncation) {
  EXPECT_EQ(truncate_to_width("training", 8), "training");
  EXPECT_EQ(truncate_to_width("training", 5), "trai…");
  EXPECT_EQ(truncate_to_width("日本語", 4), "日…");
  EXPECT_EQ(truncate_to_width("日本語", 5), "日本…");
  EXPECT_EQ(truncate_to_width("abc", 0), "");
  EXPECT_EQ(truncate_left_to_width("/a/b/c/d", 5), "…/c/d");
  EXPECT_EQ(fit_to_width("ab", 4, Align::Right), "  ab");
  EXPECT_EQ(fit_to_width("ab", 5, Align::Center), " ab  ");
  EXPECT_EQ(fit_to_width("日本語", 5), "日本…");
}

TEST(Text, WrapWords) {
  auto lines = wrap_words("delete job train-1 and its 3 tasks", 12);
  EXPECT_EQ(lines, (std::vector<std::string>{"delete job", "train-1 and", "its 3 tasks"}));
  EXPECT_EQ(wrap_words("abcdefghij", 4), (std::vector<std::string>{"abcd", "efgh", "ij"}));
  EXPECT_EQ(wrap_words("a\nb", 10), (std::vector<std::string>{"a", "b"}));
}

}  // namespace
}  // namespace trainyard::text_test
