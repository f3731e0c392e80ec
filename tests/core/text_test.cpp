// core/text.hpp: the ASCII helpers every library shares (no locale: the same answer under any).
#include "core/text.hpp"

#include <gtest/gtest.h>

namespace trainyard::text_test {
namespace {

TEST(Text, TrimSpaceRemovesSpacesTabsAndLineEndsAroundOnly) {
  EXPECT_EQ(trim_space("  key==\r\n"), "key==");
  EXPECT_EQ(trim_space("\ta b\t"), "a b");
  EXPECT_EQ(trim_space(" \r\n\t "), "");
  EXPECT_EQ(trim_space(""), "");
  EXPECT_EQ(trim_space("x"), "x");
}

TEST(Text, AsciiLowercaseLowersOnlyAsciiCapitals) {
  EXPECT_EQ(ascii_lowercase("TaskSuccess"), "tasksuccess");
  EXPECT_EQ(ascii_lowercase("ÄB-9"), "Äb-9");  // UTF-8 bytes of Ä are left as they are
  EXPECT_TRUE(iequals("Failed", "fAILED"));
  EXPECT_EQ(trim_trailing("https://h//", '/'), "https://h");
}

}  // namespace
}  // namespace trainyard::text_test
