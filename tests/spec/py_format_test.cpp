// Python float repr and str.format against the Python installed here.
#include "spec/py_format.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "shipyard_python.hpp"

namespace trainyard::spec::py_format_test {
namespace {

using testing::have_python;
using testing::lines_of;
using testing::run_python;

TEST(PyFormatTest, ReprOfFloatsFollowsPython) {
  EXPECT_EQ(py_repr_float(0.1), "0.1");
  EXPECT_EQ(py_repr_float(1e-05), "1e-05");
  EXPECT_EQ(py_repr_float(0.0001), "0.0001");
  EXPECT_EQ(py_repr_float(1e16), "1e+16");
  EXPECT_EQ(py_repr_float(1e15), "1000000000000000.0");
  EXPECT_EQ(py_repr_float(123456789.0), "123456789.0");
  EXPECT_EQ(py_repr_float(1.5e300), "1.5e+300");
  EXPECT_EQ(py_repr_float(-0.0), "-0.0");
  EXPECT_EQ(py_repr_float(std::numeric_limits<double>::infinity()), "inf");
  EXPECT_EQ(py_repr_float(-std::numeric_limits<double>::infinity()), "-inf");
  EXPECT_EQ(py_repr_float(std::nan("")), "nan");
  EXPECT_EQ(py_repr_float(5e-324), "5e-324");
}

// Random bit patterns and decades of magnitudes, printed by Python from their hex form.
TEST(PyFormatTest, ReprMatchesPythonForManyDoubles) {
  if (!have_python()) GTEST_SKIP() << "/usr/bin/python3 absent";
  std::vector<double> xs;
  std::mt19937_64 gen(42);
  for (int i = 0; i < 3000; ++i) {
    uint64_t bits = gen();
    double d = 0;
    std::memcpy(&d, &bits, sizeof d);
    if (std::isfinite(d)) xs.push_back(d);
  }
  for (int e = -330; e <= 310; ++e) xs.push_back(std::pow(10.0, e) * 1.2345);
  for (int e = -20; e <= 20; ++e) xs.push_back(std::ldexp(1.0, e) / 3);
  std::string py = "xs = [";
  char buf[64];
  for (double x : xs) {
    std::snprintf(buf, sizeof buf, "'%a',", x);
    py += buf;
  }
  py += "]\nfor x in xs: print(repr(float.fromhex(x)))\n";
  auto out = run_python(py);
  ASSERT_TRUE(out.has_value());
  const auto lines = lines_of(*out);
  ASSERT_EQ(lines.size(), xs.size());
  for (std::size_t i = 0; i < xs.size(); ++i) EXPECT_EQ(py_repr_float(xs[i]), lines[i]);
}

TEST(PyFormatTest, StrOfScalars) {
  EXPECT_EQ(py_str(PyValue{}), "None");
  EXPECT_EQ(py_str(PyValue(true)), "True");
  EXPECT_EQ(py_str(PyValue(int64_t{-42})), "-42");
  EXPECT_EQ(py_str(PyValue(2.0)), "2.0");
  EXPECT_EQ(py_str(PyValue(std::string("lr"))), "lr");
  EXPECT_EQ(py_repr(PyValue(std::string("a'b"))), "\"a'b\"");
  EXPECT_EQ(py_repr(PyValue(std::string("x\ty"))), "'x\\ty'");
}

TEST(PyFormatTest, AutoAndManualNumberingAndEscapes) {
  std::vector<PyValue> args{PyValue(int64_t{1}), PyValue(0.1), PyValue(std::string("s"))};
  EXPECT_EQ(*py_format("a {} b {} c {}", args), "a 1 b 0.1 c s");
  EXPECT_EQ(*py_format("{2}{0}{0}", args), "s11");
  EXPECT_EQ(*py_format("{{}} {{{0}}}", args), "{} {1}");
  EXPECT_EQ(*py_format("no fields", {}), "no fields");
  EXPECT_FALSE(py_format("{0} {}", args).ok());
  EXPECT_FALSE(py_format("{} {1}", args).ok());
  EXPECT_FALSE(py_format("{3}", args).ok());
  EXPECT_FALSE(py_format("oops }", args).ok());
  EXPECT_FALSE(py_format("oops {", args).ok());
  EXPECT_FALSE(py_format("{name}", args).ok());
  EXPECT_EQ(py_format("{3}", args).error().message,
            "Replacement index 3 out of range for positional args tuple");
}

// Format specs users put in sweep commands, compared with Python's output.
TEST(PyFormatTest, FormatSpecsMatchPython) {
  if (!have_python()) GTEST_SKIP() << "/usr/bin/python3 absent";
  const std::vector<std::string> fmts{"{}",     "{:.3f}", "{:08.2e}", "{:+}",  "{:%}",    "{:.2%}",
                                      "{:g}",   "{:.3g}", "{:G}",     "{:>9}", "{:<9}|",  "{:^9}|",
                                      "{:*^9}", "{:05}",  "{:.3}",    "{!r}",  "{!s:>6}", "{:10.4}",
                                      "{:=+8}", "{: }",   "{:e}",     "{:F}",  "{:.0f}"};
  const std::vector<std::string> vals{"0.1",  "1e-05", "-2.5",       "1e+16",        "3",
                                      "-7",   "0",     "123456.789", "float('inf')", "-0.0",
                                      "True", "2**40"};
  std::string py = "fmts = [";
  for (const auto& f : fmts) py += "'" + f + "',";
  py += "]\nvals = [";
  for (const auto& v : vals) py += v + ",";
  py +=
      "]\nfor f in fmts:\n  for v in vals:\n    try: print(f.format(v))\n"
      "    except Exception: print('ERROR')\n";
  auto out = run_python(py);
  ASSERT_TRUE(out.has_value());
  const auto lines = lines_of(*out);
  const std::vector<PyValue> values{
      PyValue(0.1),        PyValue(1e-05),      PyValue(-2.5),
      PyValue(1e16),       PyValue(int64_t{3}), PyValue(int64_t{-7}),
      PyValue(int64_t{0}), PyValue(123456.789), PyValue(std::numeric_limits<double>::infinity()),
      PyValue(-0.0),       PyValue(true),       PyValue(int64_t{1} << 40)};
  ASSERT_EQ(lines.size(), fmts.size() * values.size());
  std::size_t k = 0;
  for (const auto& f : fmts) {
    for (const auto& v : values) {
      auto ours = py_format(f, {v});
      EXPECT_EQ(ours.ok() ? *ours : "ERROR", lines[k]) << f << " with " << vals[k % vals.size()];
      ++k;
    }
  }
}

}  // namespace
}  // namespace trainyard::spec::py_format_test
