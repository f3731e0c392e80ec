// itertools-equivalent sweeps: counts and order against Python.
#include "spec/sweep.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "shipyard_python.hpp"

namespace trainyard::spec::sweep_test {
namespace {

using testing::have_python;
using testing::lines_of;
using testing::run_python;

std::vector<PyValue> ints(int n) {
  std::vector<PyValue> out;
  for (int i = 0; i < n; ++i) out.emplace_back(int64_t{i});
  return out;
}

// Python's `repr(tuple)` lines for comparison with the oracle.
std::string text(const std::vector<PyArgs>& rows) {
  std::string out;
  for (const auto& row : rows) {
    out += "(";
    for (std::size_t i = 0; i < row.size(); ++i) out += (i ? ", " : "") + py_repr(row[i]);
    out += row.size() == 1 ? ",)\n" : ")\n";
  }
  return out;
}

TEST(SweepTest, Counts) {
  EXPECT_EQ(sweep_product({ints(3), ints(4), ints(5)})->size(), 60u);
  EXPECT_EQ(sweep_product({})->size(), 1u);
  EXPECT_EQ(sweep_product({ints(3), {}})->size(), 0u);
  EXPECT_EQ(sweep_combinations(ints(5), 2, false)->size(), 10u);
  EXPECT_EQ(sweep_combinations(ints(5), 2, true)->size(), 15u);
  EXPECT_EQ(sweep_combinations(ints(3), 4, false)->size(), 0u);
  EXPECT_EQ(sweep_combinations(ints(3), 4, true)->size(), 15u);
  EXPECT_EQ(sweep_combinations(ints(3), 0, false)->size(), 1u);
  EXPECT_EQ(sweep_permutations(ints(5), 3)->size(), 60u);
  EXPECT_EQ(sweep_permutations(ints(4), 4)->size(), 24u);
  EXPECT_EQ(sweep_permutations(ints(3), 0)->size(), 1u);
  EXPECT_EQ(sweep_permutations(ints(3), 5)->size(), 0u);
  EXPECT_EQ(sweep_zip({ints(3), ints(5)}).size(), 3u);
  EXPECT_EQ(sweep_zip({}).size(), 0u);
  EXPECT_EQ(range_length(PyRange{0, 10, 3}), 4);
  EXPECT_EQ(range_length(PyRange{10, 0, -3}), 4);
  EXPECT_EQ(range_length(PyRange{0, 10, -1}), 0);
}

TEST(SweepTest, LimitsAreErrors) {
  EXPECT_FALSE(sweep_product({ints(100), ints(100)}, 9999).ok());
  EXPECT_TRUE(sweep_product({ints(100), ints(100)}, 10000).ok());
  EXPECT_FALSE(sweep_permutations(ints(10), 10, 1000).ok());
  EXPECT_FALSE(range_values(PyRange{0, 1LL << 40, 1}).ok());
}

TEST(SweepTest, OrderMatchesItertools) {
  if (!have_python()) GTEST_SKIP() << "/usr/bin/python3 absent";
  auto out = run_python(
      "import itertools as it\n"
      "for t in it.product(range(0,3,1), range(10,4,-2), ['a','b']): print(t)\n"
      "for t in it.combinations(range(6), 3): print(t)\n"
      "for t in it.combinations_with_replacement(range(4), 3): print(t)\n"
      "for t in it.permutations(range(5), 3): print(t)\n"
      "for t in it.permutations('abcd'): print(t)\n"
      "for t in zip([1,2,3],[0.5,1e-05],['x','y','z']): print(t)\n");
  ASSERT_TRUE(out.has_value());
  std::string ours;
  std::vector<PyValue> ab{PyValue(std::string("a")), PyValue(std::string("b"))};
  ours += text(*sweep_product({*range_values({0, 3, 1}), *range_values({10, 4, -2}), ab}));
  ours += text(*sweep_combinations(ints(6), 3, false));
  ours += text(*sweep_combinations(ints(4), 3, true));
  ours += text(*sweep_permutations(ints(5), 3));
  std::vector<PyValue> abcd;
  for (const char* c : {"a", "b", "c", "d"}) abcd.emplace_back(std::string(c));
  ours += text(*sweep_permutations(abcd, 4));
  ours += text(sweep_zip({ints(4), {PyValue(0.5), PyValue(1e-05)}, ab}).size() == 2
                   ? sweep_zip({{PyValue(int64_t{1}), PyValue(int64_t{2}), PyValue(int64_t{3})},
                                {PyValue(0.5), PyValue(1e-05)},
                                {PyValue(std::string("x")), PyValue(std::string("y")),
                                 PyValue(std::string("z"))}})
                   : std::vector<PyArgs>{});
  EXPECT_EQ(lines_of(ours), lines_of(*out));
}

}  // namespace
}  // namespace trainyard::spec::sweep_test
