// PyRandom against the Python installed here: for many seeds and every distribution, the values
// (bit for bit) and their repr text must be what `random.seed(S)` then the same calls print.
#include "spec/py_random.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "shipyard_python.hpp"
#include "spec/py_format.hpp"

namespace trainyard::spec::py_random_test {
namespace {

using testing::have_python;
using testing::lines_of;
using testing::run_python;

constexpr int kDraws = 25;

// A Python expression of `i` (the draw index) and the same call in C++.
struct Case {
  std::string python;
  std::function<std::string(PyRandom&, int)> cpp;
};

std::string f(double x) {
  return py_repr_float(x);
}

std::string i64(int64_t x) {
  return std::to_string(x);
}

const std::vector<Case>& cases() {
  static const std::vector<Case> all{
      {"random.random()", [](PyRandom& r, int) { return f(r.random()); }},
      {"random.getrandbits(32)",
       [](PyRandom& r, int) { return std::to_string(r.getrandbits(32)); }},
      {"random.getrandbits(7)", [](PyRandom& r, int) { return std::to_string(r.getrandbits(7)); }},
      {"random.getrandbits(40)",
       [](PyRandom& r, int) { return std::to_string(r.getrandbits(40)); }},
      {"random.getrandbits(64)",
       [](PyRandom& r, int) { return std::to_string(r.getrandbits(64)); }},
      {"random.randrange(0, 10, 1)", [](PyRandom& r, int) { return i64(*r.randrange(0, 10, 1)); }},
      {"random.randrange(-50, 50, 3)",
       [](PyRandom& r, int) { return i64(*r.randrange(-50, 50, 3)); }},
      {"random.randrange(100, 0, -7)",
       [](PyRandom& r, int) { return i64(*r.randrange(100, 0, -7)); }},
      {"random.randrange(0, 2**40, 1)",
       [](PyRandom& r, int) { return i64(*r.randrange(0, 1LL << 40, 1)); }},
      {"random.randrange(5, 1000000007, 2)",
       [](PyRandom& r, int) { return i64(*r.randrange(5, 1000000007, 2)); }},
      {"random.uniform(-1.5, 2.5)", [](PyRandom& r, int) { return f(r.uniform(-1.5, 2.5)); }},
      {"random.uniform(1, 3)", [](PyRandom& r, int) { return f(r.uniform(1, 3)); }},
      {"random.triangular(0, 10, None)",
       [](PyRandom& r, int) { return f(r.triangular(0, 10, std::nullopt)); }},
      {"random.triangular(0, 10, 2)", [](PyRandom& r, int) { return f(r.triangular(0, 10, 2.0)); }},
      {"random.triangular(1e-05, 0.001, 0.0001)",
       [](PyRandom& r, int) { return f(r.triangular(1e-05, 0.001, 0.0001)); }},
      {"random.betavariate(0.5, 0.5)", [](PyRandom& r, int) { return f(r.betavariate(0.5, 0.5)); }},
      {"random.betavariate(2, 5)", [](PyRandom& r, int) { return f(r.betavariate(2, 5)); }},
      {"random.expovariate(1.5)", [](PyRandom& r, int) { return f(r.expovariate(1.5)); }},
      {"random.expovariate(-2)", [](PyRandom& r, int) { return f(r.expovariate(-2)); }},
      {"random.gammavariate(0.5, 2)", [](PyRandom& r, int) { return f(r.gammavariate(0.5, 2)); }},
      {"random.gammavariate(1, 3)", [](PyRandom& r, int) { return f(r.gammavariate(1, 3)); }},
      {"random.gammavariate(9, 0.5)", [](PyRandom& r, int) { return f(r.gammavariate(9, 0.5)); }},
      {"random.gauss(0, 1)", [](PyRandom& r, int) { return f(r.gauss(0, 1)); }},
      {"random.gauss(100, 15)", [](PyRandom& r, int) { return f(r.gauss(100, 15)); }},
      {"random.normalvariate(0, 1)", [](PyRandom& r, int) { return f(r.normalvariate(0, 1)); }},
      {"random.lognormvariate(0, 0.25)",
       [](PyRandom& r, int) { return f(r.lognormvariate(0, 0.25)); }},
      {"random.lognormvariate(-3, 2)", [](PyRandom& r, int) { return f(r.lognormvariate(-3, 2)); }},
      {"random.paretovariate(3)", [](PyRandom& r, int) { return f(r.paretovariate(3)); }},
      {"random.weibullvariate(1.5, 0.5)",
       [](PyRandom& r, int) { return f(r.weibullvariate(1.5, 0.5)); }},
      // gauss keeps its second value across other calls until the next seed.
      {"(random.gauss(0, 1) if i % 3 else random.random())",
       [](PyRandom& r, int i) { return i % 3 != 0 ? f(r.gauss(0, 1)) : f(r.random()); }},
  };
  return all;
}

const std::vector<int64_t>& seeds() {
  static const std::vector<int64_t> all = [] {
    std::vector<int64_t> s;
    for (int64_t i = 0; i < 40; ++i) s.push_back(i);
    for (int64_t x : {int64_t{-1}, int64_t{-12345}, int64_t{1} << 32, (int64_t{1} << 32) + 1,
                      int64_t{123456789012345}, INT64_MAX, INT64_MIN + 1}) {
      s.push_back(x);
    }
    return s;
  }();
  return all;
}

std::string oracle_script() {
  std::string py = "import random\nseeds = [";
  for (int64_t s : seeds()) py += std::to_string(s) + ",";
  py += "]\nexprs = [\n";
  for (const auto& c : cases()) py += "  lambda i: " + c.python + ",\n";
  py += "]\nfor e in exprs:\n  for s in seeds:\n    random.seed(s)\n";
  py += "    print(' '.join(repr(e(i)) for i in range(" + std::to_string(kDraws) + ")))\n";
  return py;
}

std::string cpp_line(const Case& c, int64_t seed) {
  PyRandom r;
  r.seed(seed);
  std::string line;
  for (int i = 0; i < kDraws; ++i) line += (i != 0 ? " " : "") + c.cpp(r, i);
  return line;
}

// Bitwise equality of every float token (the text check alone would hide -0.0 vs 0.0 only).
void expect_same_bits(const std::string& ours, const std::string& theirs) {
  std::istringstream sa(ours), sb(theirs);
  for (std::string x, y; sa >> x && sb >> y;) {
    double dx = std::strtod(x.c_str(), nullptr), dy = std::strtod(y.c_str(), nullptr);
    EXPECT_EQ(0, std::memcmp(&dx, &dy, sizeof dx)) << x << " vs " << y;
  }
}

TEST(PyRandomTest, EveryDistributionAndSeedMatchesPython) {
  if (!have_python()) GTEST_SKIP() << "/usr/bin/python3 absent";
  auto out = run_python(oracle_script());
  ASSERT_TRUE(out.has_value());
  const auto lines = lines_of(*out);
  ASSERT_EQ(lines.size(), cases().size() * seeds().size());
  std::size_t k = 0, matched = 0;
  for (const auto& c : cases()) {
    for (int64_t s : seeds()) {
      const std::string ours = cpp_line(c, s);
      EXPECT_EQ(ours, lines[k]) << c.python << " seed " << s;
      expect_same_bits(ours, lines[k]);
      matched += ours == lines[k] ? 1 : 0;
      ++k;
    }
  }
  EXPECT_EQ(matched, lines.size());
  std::printf("[ matched  ] %zu cases x %zu seeds x %d draws\n", cases().size(), seeds().size(),
              kDraws);
}

TEST(PyRandomTest, SeedResetsTheGaussCache) {
  PyRandom a, b;
  a.seed(7);
  (void)a.gauss(0, 1);  // leaves a cached second value
  a.seed(7);
  b.seed(7);
  EXPECT_EQ(a.gauss(0, 1), b.gauss(0, 1));
}

TEST(PyRandomTest, RandrangeRejectsEmptyAndZeroStep) {
  PyRandom r;
  EXPECT_FALSE(r.randrange(5, 5, 1).ok());
  EXPECT_FALSE(r.randrange(0, 10, 0).ok());
  EXPECT_FALSE(r.randrange(0, 10, -1).ok());
}

TEST(PyRandomTest, KnownFirstValueOfSeedZero) {
  PyRandom r;
  r.seed(0);
  EXPECT_EQ(py_repr_float(r.random()), "0.8444218515250481");  // Python 3's random.seed(0)
}

}  // namespace
}  // namespace trainyard::spec::py_random_test
