#include "row_filter.hpp"

#include <gtest/gtest.h>

#include <map>

namespace trainyard::row_filter_test {
namespace {

/// A row of a tasks-like table: its whole text and its columns' values.
struct Row {
  std::string text;
  std::map<std::string, std::vector<std::string>> fields;
};

bool keeps(const std::string& filter, const Row& row) {
  auto f = parse_row_filter(filter);
  EXPECT_TRUE(f) << filter;
  if (!f) return false;
  return row_matches(*f, row.text, [&](const std::string& name) {
    auto it = row.fields.find(name);
    return it == row.fields.end() ? std::nullopt : std::optional(it->second);
  });
}

const Row kFailed{
    "t1 completed 3 gpu-a python train.py",
    {{"id", {"t1"}}, {"state", {"completed", "failed"}}, {"exit", {"3"}}, {"pool", {"gpu-a"}}}};
const Row kOk{"t2 completed 0 cpu-b python eval.py",
              {{"id", {"t2"}}, {"state", {"completed"}}, {"exit", {"0"}}, {"pool", {"cpu-b"}}}};
const Row kRunning{"t3 running  gpu-b python train.py --lr 0.1",
                   {{"id", {"t3"}}, {"state", {"running"}}, {"exit", {""}}, {"pool", {"gpu-b"}}}};

TEST(RowFilter, ParsesEachKindOfTerm) {
  auto f = parse_row_filter("  state:failed !exit:!=0 /tr.in/  pool:gpu* Train ");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->terms.size(), 5u);
  EXPECT_EQ(f->terms[0].kind, FilterTerm::Kind::Field);
  EXPECT_EQ(f->terms[0].field, "state");
  EXPECT_EQ(f->terms[0].value, "failed");
  EXPECT_EQ(f->terms[1].op, FilterOp::Ne);
  EXPECT_TRUE(f->terms[1].negate);
  EXPECT_EQ(f->terms[1].value, "0");
  EXPECT_EQ(f->terms[2].kind, FilterTerm::Kind::Regex);
  EXPECT_EQ(f->terms[2].value, "tr.in");
  EXPECT_EQ(f->terms[3].op, FilterOp::Glob);
  EXPECT_EQ(f->terms[4].kind, FilterTerm::Kind::Text);
  EXPECT_EQ(f->terms[4].value, "Train");
}

TEST(RowFilter, ARegexMayHoldSpacesAndAnEscapedSlash) {
  auto f = parse_row_filter("/a b\\/c/ x");
  ASSERT_TRUE(f);
  ASSERT_EQ(f->terms.size(), 2u);
  EXPECT_EQ(f->terms[0].value, "a b\\/c");
  EXPECT_EQ(f->terms[1].value, "x");
}

TEST(RowFilter, AnInvalidRegexIsAOneLineError) {
  auto f = parse_row_filter("state:running /(unclosed/");
  ASSERT_FALSE(f);
  EXPECT_EQ(f.error().kind, ErrorKind::Usage);
  EXPECT_NE(f.error().message.find("bad filter: regex /(unclosed/"), std::string::npos);
  EXPECT_EQ(f.error().message.find('\n'), std::string::npos);
}

TEST(RowFilter, TermsBeingTypedConstrainNothing) {
  auto f = parse_row_filter("state: //");
  ASSERT_TRUE(f);
  EXPECT_TRUE(f->terms.empty());
  EXPECT_TRUE(keeps("exit:!=", kRunning));
}

TEST(RowFilter, StateMatchesAnyOfTheColumnsValues) {
  EXPECT_TRUE(keeps("state:failed", kFailed));
  EXPECT_FALSE(keeps("state:failed", kOk));
  EXPECT_TRUE(keeps("state:COMPLETED", kOk));
  EXPECT_TRUE(keeps("state:completed", kFailed));
  // Not failed: the failed task's `failed` value rules it out though it is also `completed`.
  EXPECT_FALSE(keeps("state:!=failed", kFailed));
  EXPECT_TRUE(keeps("!state:failed", kOk));
  EXPECT_FALSE(keeps("!state:failed", kFailed));
}

TEST(RowFilter, ExitComparesNumbersAndANoValueCellComparesToNothing) {
  EXPECT_TRUE(keeps("exit:!=0", kFailed));
  EXPECT_FALSE(keeps("exit:!=0", kOk));
  EXPECT_FALSE(keeps("exit:!=0", kRunning));
  EXPECT_TRUE(keeps("exit:0", kOk));
  EXPECT_TRUE(keeps("exit:=0.0", kOk));  // as numbers, 0 == 0.0
  EXPECT_TRUE(keeps("exit:>1", kFailed));
  EXPECT_FALSE(keeps("exit:>3", kFailed));
  EXPECT_TRUE(keeps("exit:>=3", kFailed));
  EXPECT_TRUE(keeps("exit:<1", kOk));
  EXPECT_TRUE(keeps("!exit:0", kRunning));
  // A failure code instead of an exit code: not 0, and not larger or smaller than a number.
  const Row code{"t4 completed ContainerFailed", {{"exit", {"ContainerFailed"}}}};
  EXPECT_TRUE(keeps("exit:!=0", code));
  EXPECT_FALSE(keeps("exit:>1", code));
  EXPECT_FALSE(keeps("exit:<1", code));
  EXPECT_TRUE(keeps("exit:containerfailed", code));
}

TEST(RowFilter, PoolGlob) {
  EXPECT_TRUE(keeps("pool:gpu*", kFailed));
  EXPECT_TRUE(keeps("pool:GPU-?", kRunning));
  EXPECT_FALSE(keeps("pool:gpu*", kOk));
  EXPECT_TRUE(keeps("pool:!=gpu*", kOk));
  EXPECT_FALSE(keeps("pool:gpu", kFailed));  // a field compares whole values
}

TEST(RowFilter, TermsAreAndedAndPlainTextIsASubstringOfTheRow) {
  EXPECT_TRUE(keeps("TRAIN gpu", kFailed));
  EXPECT_FALSE(keeps("train cpu", kFailed));
  EXPECT_TRUE(keeps("state:running train", kRunning));
  EXPECT_FALSE(keeps("state:running eval", kRunning));
  EXPECT_TRUE(keeps("!eval", kRunning));
}

TEST(RowFilter, RegexOverTheRowIgnoringCase) {
  EXPECT_TRUE(keeps("/^T[0-9] RUN/", kRunning));
  EXPECT_FALSE(keeps("/^t[0-9] run/", kFailed));
  EXPECT_TRUE(keeps("!/eval\\.py$/", kFailed));
}

TEST(RowFilter, AFieldThePaneLacksIsPlainText) {
  EXPECT_TRUE(keeps("lr:0.1", Row{"x --lr:0.1", {}}));
  EXPECT_FALSE(keeps("lr:0.2", Row{"x --lr:0.1", {}}));
}

TEST(RowFilter, GlobMatching) {
  EXPECT_TRUE(glob_matches_ci("*", ""));
  EXPECT_TRUE(glob_matches_ci("a*b*c", "aXXbYc"));
  EXPECT_FALSE(glob_matches_ci("a*b*c", "aXXbY"));
  EXPECT_TRUE(glob_matches_ci("?b", "AB"));
  EXPECT_FALSE(glob_matches_ci("?b", "b"));
}

}  // namespace
}  // namespace trainyard::row_filter_test
