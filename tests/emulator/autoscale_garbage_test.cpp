// The autoscale evaluator on garbage: random bytes, token soup and generated formulas never crash,
// and every failure is a one-line message naming its place.
#include <gtest/gtest.h>

#include <random>
#include <string>
#include <string_view>

#include "autoscale_test_util.hpp"

namespace trainyard::emu::autoscale_garbage_test {
namespace {

using autoscale_test::eval;
using autoscale_test::inputs;

TEST(AutoscaleGarbage, RandomBytesNeverCrash) {
  std::mt19937 rng(12345);
  std::uniform_int_distribution<int> byte(0, 255);
  std::uniform_int_distribution<int> length(0, 300);
  for (int i = 0; i < 2000; ++i) {
    std::string s(static_cast<size_t>(length(rng)), '\0');
    for (char& c : s) c = static_cast<char>(byte(rng));
    const auto out = eval(s, inputs(3, 1));
    if (!out.error_code.empty()) {
      EXPECT_EQ(out.error_message.rfind("Line ", 0), 0u) << out.error_message;
      EXPECT_EQ(out.error_message.find('\n'), std::string::npos);
    }
  }
}

TEST(AutoscaleGarbage, RandomTokenSoupNeverCrashes) {
  static constexpr std::string_view kPieces[] = {"$a",
                                                 "b",
                                                 "=",
                                                 "==",
                                                 ";",
                                                 "\n",
                                                 "(",
                                                 ")",
                                                 ",",
                                                 "+",
                                                 "-",
                                                 "*",
                                                 "/",
                                                 "<",
                                                 ">=",
                                                 "&&",
                                                 "||",
                                                 "!",
                                                 "?",
                                                 ":",
                                                 "1",
                                                 "0",
                                                 "2.5",
                                                 "1e3",
                                                 "max",
                                                 "avg",
                                                 "floor",
                                                 "$PendingTasks",
                                                 ".GetSample",
                                                 ".GetSamplePercent",
                                                 "TimeInterval_Minute",
                                                 "$TargetDedicatedNodes",
                                                 "$NodeDeallocationOption",
                                                 "taskcompletion",
                                                 "\"s\"",
                                                 "//c\n",
                                                 "/*c*/",
                                                 " ",
                                                 "$CurrentDedicatedNodes",
                                                 "."};
  std::mt19937 rng(777);
  std::uniform_int_distribution<size_t> pick(0, std::size(kPieces) - 1);
  std::uniform_int_distribution<int> count(1, 60);
  for (int i = 0; i < 5000; ++i) {
    std::string s;
    const int n = count(rng);
    for (int k = 0; k < n; ++k) s += kPieces[pick(rng)];
    const auto out = eval(s, inputs(4, 2));
    if (out.error_code.empty()) {
      ASSERT_TRUE(out.target_dedicated.has_value());
      EXPECT_GE(*out.target_dedicated, 0);
    } else {
      EXPECT_EQ(out.error_message.rfind("Line ", 0), 0u) << s << " -> " << out.error_message;
    }
  }
}

/// Random well-formed expressions over the subset (some fail on types or division by zero).
class FormulaGen {
 public:
  explicit FormulaGen(unsigned seed) : rng_(seed) {}

  std::string formula() {
    std::string out;
    const int statements = between(1, 8);
    for (int i = 0; i < statements; ++i) {
      const bool target = between(0, 3) == 0;
      out += target ? (between(0, 1) ? "$TargetDedicatedNodes" : "$TargetLowPriorityNodes")
                    : "$v" + std::to_string(i);
      out += " = " + expr(between(1, 5), i) + (between(0, 1) ? ";\n" : "\n");
    }
    return out;
  }

 private:
  int between(int lo, int hi) { return std::uniform_int_distribution<int>(lo, hi)(rng_); }

  std::string leaf(int defined) {
    switch (between(0, 6)) {
      case 0:
        return std::to_string(between(0, 50));
      case 1:
        return std::to_string(between(0, 99)) + ".5";
      case 2:
        return defined > 0 ? "$v" + std::to_string(between(0, defined - 1)) : "3";
      case 3:
        return "$CurrentDedicatedNodes";
      case 4:
        return "$TargetDedicatedNodes";
      case 5:
        return "avg($PendingTasks.GetSample(TimeInterval_Minute * 5))";
      default:
        return "$ActiveTasks.GetSamplePercent(TimeInterval_Minute)";
    }
  }

  std::string expr(int depth, int defined) {
    if (depth == 0) return leaf(defined);
    static constexpr std::string_view kOps[] = {"+",  "-",  "*",  "/",  "<",
                                                ">=", "==", "!=", "&&", "||"};
    static constexpr std::string_view kFns[] = {"min", "max", "avg", "sum", "floor", "round"};
    switch (between(0, 5)) {
      case 0:
        return leaf(defined);
      case 1:
        return expr(depth - 1, defined) + " " + std::string(kOps[between(0, 9)]) + " " +
               expr(depth - 1, defined);
      case 2:
        return expr(depth - 1, defined) + " ? " + expr(depth - 1, defined) + " : " +
               expr(depth - 1, defined);
      case 3:
        return "(" + expr(depth - 1, defined) + ")";
      case 4:
        return (between(0, 1) ? "-" : "!") + expr(depth - 1, defined);
      default: {
        const auto fn = kFns[between(0, 5)];
        const bool one = fn == "floor" || fn == "round";
        return std::string(fn) + "(" + expr(depth - 1, defined) +
               (one ? "" : ", " + expr(depth - 1, defined)) + ")";
      }
    }
  }

  std::mt19937 rng_;
};

TEST(AutoscaleGarbage, GeneratedFormulasEvaluateOrFailCleanly) {
  FormulaGen gen(2024);
  std::mt19937 rng(99);
  int successes = 0;
  for (int i = 0; i < 3000; ++i) {
    std::string f = gen.formula();
    if (i % 3 == 0 && !f.empty()) {  // a one-character mutation
      const auto at = std::uniform_int_distribution<size_t>(0, f.size() - 1)(rng);
      f[at] = "()+;$?:.\"x"[std::uniform_int_distribution<int>(0, 9)(rng)];
    }
    const auto out = eval(f, inputs(5, 3));
    if (out.error_code.empty()) {
      ++successes;
      ASSERT_TRUE(out.target_dedicated && out.target_low_priority) << f;
      EXPECT_GE(*out.target_dedicated, 0) << f;
      EXPECT_GE(*out.target_low_priority, 0) << f;
      EXPECT_EQ(out.results.rfind("$TargetDedicatedNodes=", 0), 0u) << f;
    } else {
      EXPECT_EQ(out.error_message.rfind("Line ", 0), 0u) << f << " -> " << out.error_message;
      EXPECT_EQ(out.error_message.find('\n'), std::string::npos) << f;
    }
  }
  EXPECT_GT(successes, 1000);
}

}  // namespace
}  // namespace trainyard::emu::autoscale_garbage_test
