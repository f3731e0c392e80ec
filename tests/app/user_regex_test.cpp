// The regexes a user types (the filter's `/regex/`, `:grep /regex/`): RE2 refuses the patterns
// that made glibc's regcomp take seconds and gigabytes, and matches anywhere in a long line in
// linear time.
#include <gtest/gtest.h>

#include <string>

#include "log_grep.hpp"
#include "row_filter.hpp"
#include "user_regex.hpp"

namespace trainyard::user_regex_test {
namespace {

// Found by fuzz_row_filter: glibc's regcomp took over 2 GiB on the first filter, and over 10 s
// under ASan on the second, before anything was matched.
TEST(UserRegex, TheFilterRefusesStackedRepetitionsAtOnce) {
  std::string pattern = "!" + std::string(80, '+') + "exit";
  auto f = parse_row_filter("pool:x /" + pattern + "/ ltas");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().message, "bad filter: regex /" + pattern + "/: bad repetition operator: ++");
  std::string fuzzed = "!+++++++++++++ppONloo______-++\x13\x13p++++++++++:\x03*++++++++++exit";
  auto g = parse_row_filter("pool:x /" + fuzzed + "/ tlas");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().message, "bad filter: regex /" + fuzzed + "/: bad repetition operator: ++");
}

TEST(UserRegex, GrepRefusesARepetitionTooLargeToCompile) {
  auto g = parse_grep_pattern("/((a{99}){99}){99}/");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().message,
            "grep: bad regex /((a{99}){99}){99}/: invalid repetition size: {99}");
}

TEST(UserRegex, NestedRepetitionsCompileAndMatch) {
  auto f = parse_row_filter("/((((a+)+)+)+)+b/");
  ASSERT_TRUE(f) << f.error().message;
  std::string row(30, 'a');  // a backtracking matcher takes 2^30 steps to fail here
  EXPECT_FALSE(row_matches(*f, row, nullptr));
  EXPECT_TRUE(row_matches(*f, row + "B", nullptr));  // the filter ignores case
}

// std::regex overflowed the stack on a line of some 20,000 characters and took the TUI down;
// a match at the end of a line of a million characters is found.
TEST(UserRegex, MatchesAnywhereInALongLine) {
  auto grep = parse_grep_pattern("/(a|b)*c/");
  ASSERT_TRUE(grep) << grep.error().message;
  std::string line(1'000'000, 'a');
  EXPECT_FALSE(grep_matches(*grep, line));
  line.back() = 'c';
  EXPECT_TRUE(grep_matches(*grep, line));
  EXPECT_EQ(grep_match_text(*grep, line), line);  // the leftmost match runs from the start
  line.back() = 'C';
  EXPECT_FALSE(grep_matches(*grep, line));  // grep keeps case as written
  auto filter = parse_row_filter("/a+c$/");
  ASSERT_TRUE(filter) << filter.error().message;
  EXPECT_TRUE(row_matches(*filter, line, nullptr));
}

TEST(UserRegex, FindsTheFirstMatchAndItsLength) {
  auto re = UserRegex::compile("loss=[0-9.]+", false);
  ASSERT_TRUE(re) << re.error().message;
  auto m = (*re)->find("epoch 2 loss=0.25 acc=0.9 loss=0.5");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first, 8u);
  EXPECT_EQ(m->second, 9u);
  EXPECT_FALSE((*re)->find("LOSS=0.25"));           // case as written
  auto digits = UserRegex::compile("\\d+", false);  // Perl's classes
  ASSERT_TRUE(digits) << digits.error().message;
  EXPECT_EQ((*digits)->find("step 120"), (std::pair<size_t, size_t>{5, 3}));
}

TEST(UserRegex, ABadPatternSaysWhy) {
  auto bad = UserRegex::compile("(", false);
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().message, "missing ): (");
  auto range = UserRegex::compile("[z-a]", true);
  ASSERT_FALSE(range);
  EXPECT_EQ(range.error().message, "invalid character class range: z-a");
}

}  // namespace
}  // namespace trainyard::user_regex_test
