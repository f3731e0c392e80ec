// The cost estimate of a user's regex, worked out by hand from regex_budget.hpp's rules: an atom
// is 1, a group what it holds plus 1, `+` `*` `?` double what they follow, `{m,n}` multiplies
// it by its largest count.
#include <gtest/gtest.h>

#include <string>

#include "../../app/src/log_grep.hpp"
#include "../../app/src/posix_regex.hpp"
#include "../../app/src/regex_budget.hpp"
#include "../../app/src/row_filter.hpp"

namespace trainyard {
namespace {

TEST(RegexCost, CountsAtomsGroupsAndRepetitions) {
  EXPECT_EQ(regex_cost(""), 0);
  EXPECT_EQ(regex_cost("abc"), 3);
  EXPECT_EQ(regex_cost("a+"), 2);                    // a, then its copy
  EXPECT_EQ(regex_cost("a++"), 4);                   // (a a) copied
  EXPECT_EQ(regex_cost("(ab)"), 3);                  // two atoms and the group
  EXPECT_EQ(regex_cost("(ab){3}"), 9);               // the group of 3, three times
  EXPECT_EQ(regex_cost("x{2,5}"), 5);                // the largest count
  EXPECT_EQ(regex_cost("[a-z]+\\.\\+"), 4);          // a bracket is one atom, \. and \+ one each
  EXPECT_EQ(regex_cost("[]a]b"), 2);                 // `]` first in a bracket is a member
  EXPECT_EQ(regex_cost("a{x}"), 4);                  // not a bound: `{`, x and `}` are characters
  EXPECT_EQ(regex_cost("((a{10}){10}){10}"), 1110);  // 10 + 1 = 11, ×10 = 110, +1 = 111, ×10
}

TEST(RegexCost, ANestedOrStackedRepetitionIsOverTheBudget) {
  EXPECT_GT(regex_cost("!" + std::string(80, '+')), kRegexBudget);
  EXPECT_GT(regex_cost("((a{99}){99}){99}"), kRegexBudget);
  EXPECT_LE(regex_cost("^lr-0\\.0[0-9]{3}(-seed[0-9]+)?$"), kRegexBudget);
}

// Found by fuzz_row_filter: glibc's regcomp took over 2 GiB on this filter before it was refused.
TEST(RegexCost, TheFilterAndGrepRefuseAPatternTooCostlyToCompile) {
  std::string pattern = "!" + std::string(80, '+') + "exit";
  auto f = parse_row_filter("pool:x /" + pattern + "/ ltas");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().message,
            "bad filter: regex /" + pattern + "/: too many repetitions to compile");
  auto g = parse_grep_pattern("/((a{99}){99}){99}/");
  ASSERT_FALSE(g);
  EXPECT_EQ(g.error().message,
            "grep: bad regex /((a{99}){99}){99}/: too many repetitions to compile");
}

// std::regex, which :grep used before, overflowed the stack on a line of some 20,000 characters
// and took the TUI down; glibc's matcher could take quadratic time on it. Only the line's first
// kRegexWindow bytes are searched.
TEST(PosixRegex, SearchesALongLinesStartOnly) {
  auto grep = parse_grep_pattern("/(a|b)*c/");
  ASSERT_TRUE(grep) << grep.error().message;
  std::string line(1'000'000, 'a');
  EXPECT_FALSE(grep_matches(*grep, line));
  line[kRegexWindow - 1] = 'c';
  EXPECT_TRUE(grep_matches(*grep, line));
  line[kRegexWindow - 1] = 'a';
  line[kRegexWindow] = 'c';
  EXPECT_FALSE(grep_matches(*grep, line));
  auto filter = parse_row_filter("/a+C/");  // the filter ignores case
  ASSERT_TRUE(filter) << filter.error().message;
  EXPECT_FALSE(row_matches(*filter, line, nullptr));
  line[10] = 'c';
  EXPECT_TRUE(row_matches(*filter, line, nullptr));
}

TEST(PosixRegex, FindsTheFirstMatchAndItsLength) {
  auto re = PosixRegex::compile("loss=[0-9.]+", false);
  ASSERT_TRUE(re) << re.error().message;
  auto m = (*re)->find("epoch 2 loss=0.25 acc=0.9");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->first, 8u);
  EXPECT_EQ(m->second, 9u);
  EXPECT_FALSE((*re)->find("LOSS=0.25"));  // case as written
  auto bad = PosixRegex::compile("(", false);
  ASSERT_FALSE(bad);
  EXPECT_FALSE(bad.error().message.empty());
}

}  // namespace
}  // namespace trainyard
