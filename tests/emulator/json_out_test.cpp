// The emulator's JSON writer: string literals as nlohmann's parser reads them back, whatever the
// characters, and objects with $select.
#include "json_out.hpp"

#include <gtest/gtest.h>

#include <string>

#include <nlohmann/json.hpp>

namespace trainyard::emu::json_out_test {
namespace {

std::string literal(std::string_view s) {
  std::string out;
  append_json_string(out, s);
  return out;
}

TEST(JsonOut, EscapesQuotesBackslashesAndControlCharacters) {
  EXPECT_EQ(literal(""), R"("")");
  EXPECT_EQ(literal("plain text"), R"("plain text")");
  EXPECT_EQ(literal(R"(a"b\c)"), R"("a\"b\\c")");
  EXPECT_EQ(literal("\"\"\\"), R"("\"\"\\")");
  EXPECT_EQ(literal(std::string("\x00\x01\n\x1f", 4)), R"("\u0000\u0001\u000a\u001f")");
  EXPECT_EQ(literal("tab\there\x1b[2J"), R"("tab\u0009here\u001b[2J")");
  EXPECT_EQ(literal("\x7f caf\xc3\xa9"), "\"\x7f caf\xc3\xa9\"");  // DEL and UTF-8 as they are
}

TEST(JsonOut, EveryByteValueReadsBackAsWritten) {
  std::string all;
  for (int c = 1; c < 0x80; ++c) all.push_back(static_cast<char>(c));
  all = "x" + all + all + "y";
  EXPECT_EQ(nlohmann::json::parse(literal(all)).get<std::string>(), all);
}

TEST(JsonOut, TimesAreWrittenWithSevenFractionDigitsInUtc) {
  constexpr int64_t kSecond = 1'000'000;
  // 2016-11-22T18:55:25Z: 17127 days after 1970-01-01, plus 18:55:25.
  constexpr int64_t k20161122T185525 = (17127LL * 86400 + 18 * 3600 + 55 * 60 + 25) * kSecond;
  EXPECT_EQ(format_time(k20161122T185525 + 260859), "2016-11-22T18:55:25.2608590Z");
  EXPECT_EQ(format_time(0), "1970-01-01T00:00:00.0000000Z");
  EXPECT_EQ(format_time(-1), "1969-12-31T23:59:59.9999990Z");
  EXPECT_EQ(format_time(-86400 * kSecond), "1969-12-31T00:00:00.0000000Z");
  // 2024-02-29 (a leap day): 19782 days; 2000-03-01: 11017 days; 9999-12-31: 2932896 days.
  EXPECT_EQ(format_time(19782LL * 86400 * kSecond + 1), "2024-02-29T00:00:00.0000010Z");
  EXPECT_EQ(format_time(11017LL * 86400 * kSecond - 1), "2000-02-29T23:59:59.9999990Z");
  EXPECT_EQ(format_time((2932896LL * 86400 + 86399) * kSecond + 999999),
            "9999-12-31T23:59:59.9999990Z");
}

TEST(JsonOut, ATimeIsAStringValue) {
  std::string out;
  JsonOut j(out);
  j.begin_object();
  j.when("startTime", 1);
  j.when("endTime", 0);  // absent
  j.num("exitCode", 0);
  j.end_object();
  EXPECT_EQ(out, R"({"startTime":"1970-01-01T00:00:00.0000010Z","exitCode":0})");
}

TEST(JsonOut, SelectKeepsTheNamedTopLevelPropertiesOnly) {
  std::string out;
  const Select select = Select::parse("ID, state");
  JsonOut j(out, &select);
  j.begin_object();
  j.str("id", "t\"1");
  j.str("commandLine", "dropped");
  if (j.key("executionInfo")) {  // a dropped key's value is the caller's to skip
    j.begin_object();
    j.num("retryCount", 2);
    j.end_object();
  }
  j.str("state", "active");
  j.end_object();
  EXPECT_EQ(out, R"({"id":"t\"1","state":"active"})");
}

}  // namespace
}  // namespace trainyard::emu::json_out_test
