// Strict UTF-8 validation: the offset of the first byte that does not start a valid sequence.
#include "core/utf8.hpp"

#include <gtest/gtest.h>

namespace trainyard::utf8_test {
namespace {

TEST(Utf8, ValidTextHasNoInvalidByte) {
  EXPECT_EQ(first_invalid_utf8(""), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("plain ascii\n"), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("\xc3\xa9t\xc3\xa9 \xe4\xb8\xad \xf0\x9f\x98\x80"), std::nullopt);
  EXPECT_EQ(first_invalid_utf8("\xf4\x8f\xbf\xbf"), std::nullopt);  // U+10FFFF
}

TEST(Utf8, NamesTheFirstBadByte) {
  EXPECT_EQ(first_invalid_utf8("ab\xff"), 2U);
  EXPECT_EQ(first_invalid_utf8("\x80"), 0U);              // lone continuation
  EXPECT_EQ(first_invalid_utf8("x\xc3"), 1U);             // cut short at the end
  EXPECT_EQ(first_invalid_utf8("x\xc3y"), 1U);            // cut short mid-text
  EXPECT_EQ(first_invalid_utf8("\xc0\xaf"), 0U);          // overlong
  EXPECT_EQ(first_invalid_utf8("\xe0\x80\xaf"), 0U);      // overlong, three bytes
  EXPECT_EQ(first_invalid_utf8("ok\xed\xa0\x80"), 2U);    // surrogate
  EXPECT_EQ(first_invalid_utf8("\xf4\x90\x80\x80"), 0U);  // past U+10FFFF
  EXPECT_EQ(first_invalid_utf8("\xf5\x80\x80\x80"), 0U);
}

}  // namespace
}  // namespace trainyard::utf8_test
