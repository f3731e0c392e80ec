// Naming a run's parameters: from a task factory's placeholders, argparse-style flags and
// key=value words of its command line, and positional names stored by older versions.
#include <gtest/gtest.h>

#include "spec/run_params.hpp"

namespace trainyard {

// Readable failures: `{lr=0.1}`.
void PrintTo(const NameValue& p, std::ostream* os) {
  *os << "{" << p.name << "=" << p.value << "}";
}

namespace spec::run_params_test {
namespace {

using Params = std::vector<NameValue>;

Params from_template(std::string_view command, const PyArgs& args) {
  auto p = placeholder_parameters(command, args);
  EXPECT_TRUE(p) << (p ? "" : p.error().message);
  return p ? *p : Params{};
}

TEST(PlaceholderParameters, NamedAfterTheFlagOrKeyEachPlaceholderFills) {
  EXPECT_EQ(from_template("python train.py --lr {} --batch-size={} --opt {}",
                          {PyValue(0.01), PyValue(int64_t{64}), PyValue(std::string("adam"))}),
            (Params{{"lr", "0.01"}, {"batch-size", "64"}, {"opt", "adam"}}));
}

TEST(PlaceholderParameters, ValuesAreTheFormattedTextAndConstantFlagsAreLeftOut) {
  EXPECT_EQ(from_template("python train.py --epochs 10 --lr {0:.3f} --wd {1}",
                          {PyValue(0.1), PyValue(1e-05)}),
            (Params{{"lr", "0.100"}, {"wd", "1e-05"}}));
}

TEST(PlaceholderParameters, InsideAShellScriptWord) {
  EXPECT_EQ(from_template("/bin/bash -c \"python train.py --lr {0} dropout={1}\"",
                          {PyValue(0.5), PyValue(0.25)}),
            (Params{{"lr", "0.5"}, {"dropout", "0.25"}}));
}

TEST(PlaceholderParameters, PositionalPlaceholderKeepsItsFieldAsName) {
  EXPECT_EQ(
      from_template("python train.py {0} --lr {1}", {PyValue(std::string("data/a")), PyValue(0.1)}),
      (Params{{"{0}", "data/a"}, {"lr", "0.1"}}));
}

TEST(PlaceholderParameters, OneValueInTwoFlagsAndEscapedBraces) {
  EXPECT_EQ(from_template("python t.py --lr {0} --tag lr_{0}", {PyValue(0.1)}),
            (Params{{"lr", "0.1"}, {"tag", "lr_0.1"}}));
  EXPECT_EQ(from_template("python t.py --cfg '{{\"a\": 1}}' --lr {}", {PyValue(int64_t{3})}),
            (Params{{"lr", "3"}}));
}

TEST(PlaceholderParameters, BadTemplateIsAnError) {
  EXPECT_FALSE(placeholder_parameters("python t.py --lr {1}", {PyValue(0.1)}));
}

TEST(CommandLineParameters, ArgparseFlagsAndKeyValueWords) {
  EXPECT_EQ(command_line_parameters("python train.py --lr 0.01 --epochs=3 --verbose -b 32 -u x.py "
                                    "dropout=0.5 --name 'base line' --delta -1 --amp"),
            (Params{{"lr", "0.01"},
                    {"epochs", "3"},
                    {"b", "32"},
                    {"dropout", "0.5"},
                    {"name", "base line"},
                    {"delta", "-1"}}));
}

TEST(CommandLineParameters, ShellScriptWordsRedirectionsAndRepeats) {
  EXPECT_EQ(command_line_parameters("bash -c 'CUDA_VISIBLE_DEVICES=0 python train.py --lr=1e-3 "
                                    "--seed 7 --seed 8' > out.log 2>&1"),
            (Params{{"CUDA_VISIBLE_DEVICES", "0"}, {"lr", "1e-3"}, {"seed", "8"}}));
  EXPECT_EQ(command_line_parameters("python t.py --data http://h/a?x=1 a?b=2 -- --lr"),
            (Params{{"data", "http://h/a?x=1"}}));
  EXPECT_TRUE(command_line_parameters("").empty());
}

// A shell script's punctuation ends a value (`lr=0.001;` read `0.001;`), and what the shell
// expands when it runs (`$(awk …)`, `$i`, `$LR`) is no value at all.
TEST(CommandLineParameters, ShellPunctuationEndsAValueAndExpansionsAreNone) {
  EXPECT_EQ(
      command_line_parameters(
          "sh -c \"echo lr=0.001; for i in 1 2; do echo loss=0.$i; done; "
          "loss=$(awk 'BEGIN{print 1}'); python t.py --lr $LR --seed 3|tee x&&echo batch=8\""),
      (Params{{"lr", "0.001"}, {"seed", "3"}, {"batch", "8"}}));
  EXPECT_EQ(command_line_parameters("python t.py --epochs 2>&1 --lr=`cat lr`"), (Params{}));
  EXPECT_EQ(command_line_parameters("(cd w && python t.py --wd 0.1)"), (Params{{"wd", "0.1"}}));
}

TEST(PositionalParameters, NamedAfterTheFlagWithTheSameValue) {
  EXPECT_EQ(name_positional_parameters({{"0", "0.1"}, {"1", "32"}}, "python3 train.py --lr 0.1"),
            (Params{{"lr", "0.1"}, {"{1}", "32"}}));
  EXPECT_EQ(name_positional_parameters({{"lr", "0.1"}}, "python3 train.py --rate 0.1"),
            (Params{{"lr", "0.1"}}));
}

}  // namespace
}  // namespace spec::run_params_test
}  // namespace trainyard
