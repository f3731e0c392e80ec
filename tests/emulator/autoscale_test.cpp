// Tests of the autoscale formula evaluator: the docs' formulas, the results text, precedence,
// types, samples, errors and their messages, and limits (garbage input:
// autoscale_garbage_test.cpp).
#include "emulator/autoscale.hpp"

#include <gtest/gtest.h>

#include <climits>
#include <iterator>
#include <string>
#include <string_view>

#include "autoscale_test_util.hpp"

namespace trainyard::emu::autoscale_test {
namespace {

using autoscale_test::eval;
using autoscale_test::inputs;

/// The value `name` has in the results text, or "<missing>".
std::string result_of(const AutoscaleOutcome& out, std::string_view name) {
  const std::string text = ";" + out.results + ";";
  const std::string key = ";" + std::string(name) + "=";
  const auto at = text.find(key);
  if (at == std::string::npos) return "<missing>";
  const auto start = at + key.size();
  return text.substr(start, text.find(';', start) - start);
}

/// Evaluates `formula` as `$x = formula` and gives x's results text.
std::string value_of(std::string_view expr, const AutoscaleInputs& in = {}) {
  const auto out = eval("$x = " + std::string(expr), in);
  EXPECT_EQ(out.error_code, "") << expr << ": " << out.error_message;
  return result_of(out, "$x");
}

void expect_error(std::string_view formula, std::string_view code, std::string_view message_part,
                  const AutoscaleInputs& in = {}) {
  const auto out = eval(formula, in);
  EXPECT_EQ(out.error_code, code) << formula << " -> " << out.error_message;
  EXPECT_NE(out.error_message.find(message_part), std::string::npos)
      << formula << " -> " << out.error_message;
  EXPECT_EQ(out.error_message.find('\n'), std::string::npos);
  EXPECT_FALSE(out.error_summary.empty());
  EXPECT_FALSE(out.target_dedicated.has_value());
  EXPECT_FALSE(out.target_low_priority.has_value());
}

// The docs' "Example 2: Task-based adjustment", with the cap as the brief gives it (25).
constexpr std::string_view kTaskBased =
    "$samples = $PendingTasks.GetSamplePercent(TimeInterval_Minute * 15); $tasks = $samples < "
    "70 ? max(0,$PendingTasks.GetSample(1)) : max( $PendingTasks.GetSample(1), "
    "avg($PendingTasks.GetSample(TimeInterval_Minute * 15))); $targetVMs = $tasks > 0? "
    "$tasks:max(0, $TargetDedicatedNodes/2); $TargetDedicatedNodes = max(0, min($targetVMs, "
    "25)); $NodeDeallocationOption = taskcompletion;";

TEST(AutoscaleDocs, TaskBasedExampleFollowsPendingTasks) {
  const auto out = eval(kTaskBased, inputs(7, 10));
  ASSERT_EQ(out.error_code, "") << out.error_message;
  EXPECT_EQ(out.target_dedicated, 7);
  EXPECT_EQ(out.target_low_priority, 0);
  EXPECT_EQ(out.node_deallocation_option, "taskcompletion");
  EXPECT_EQ(out.results,
            "$TargetDedicatedNodes=7;$TargetLowPriorityNodes=0;$NodeDeallocationOption="
            "taskcompletion;$samples=100;$targetVMs=7;$tasks=7");
}

TEST(AutoscaleDocs, TaskBasedExampleHalvesWhenIdleAndCaps) {
  EXPECT_EQ(eval(kTaskBased, inputs(0, 10)).target_dedicated, 5);
  EXPECT_EQ(eval(kTaskBased, inputs(0, 1)).target_dedicated, 0);  // 0.5 rounds down
  EXPECT_EQ(eval(kTaskBased, inputs(400, 3)).target_dedicated, 25);
}

TEST(AutoscaleDocs, TaskBasedExampleWithCommentsAndLineBreaks) {
  const std::string formula =
      "// Get pending tasks for the past 15 minutes.\n"
      "$samples = $PendingTasks.GetSamplePercent(TimeInterval_Minute * 15);\n"
      "// If we have fewer than 70 percent data points, we use the last sample point,\n"
      "$tasks = $samples < 70 ? max(0,$PendingTasks.GetSample(1)) : max( "
      "$PendingTasks.GetSample(1), avg($PendingTasks.GetSample(TimeInterval_Minute * 15)));\n"
      "$targetVMs = $tasks > 0? $tasks:max(0, $TargetDedicatedNodes/2);\n"
      "/* The pool size is capped at 20. */\n"
      "$TargetDedicatedNodes = max(0, min($targetVMs, 20));\n"
      "$NodeDeallocationOption = taskcompletion;\n";
  const auto out = eval(formula, inputs(30, 4));
  ASSERT_EQ(out.error_code, "") << out.error_message;
  EXPECT_EQ(out.target_dedicated, 20);
}

TEST(AutoscaleDocs, PendingTasksSampleMatchesRecordedResults) {
  // The shape of a real pool's autoScaleRun.results for the docs' "Pending tasks" formula.
  const auto out = eval(
      "startingNumberOfVMs = 1;\nmaxNumberofVMs = 2;\n"
      "pendingTaskSamplePercent = $PendingTasks.GetSamplePercent(180 * TimeInterval_Second);\n"
      "pendingTaskSamples = pendingTaskSamplePercent < 70 ? startingNumberOfVMs : "
      "avg($PendingTasks.GetSample(180 * TimeInterval_Second));\n"
      "$TargetDedicatedNodes=min(maxNumberofVMs, pendingTaskSamples);\n");
  ASSERT_EQ(out.error_code, "") << out.error_message;
  EXPECT_EQ(out.results,
            "$TargetDedicatedNodes=0;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue;"
            "maxNumberofVMs=2;pendingTaskSamplePercent=100;pendingTaskSamples=0;"
            "startingNumberOfVMs=1");
}

TEST(AutoscaleDocs, ParallelTasksExample) {
  const std::string formula =
      "$samples = $ActiveTasks.GetSamplePercent(TimeInterval_Minute * 15);\n"
      "$tasks = $samples < 70 ? max(0,$ActiveTasks.GetSample(1)) : max( "
      "$ActiveTasks.GetSample(1),avg($ActiveTasks.GetSample(TimeInterval_Minute * 15)));\n"
      "$cores = $TargetDedicatedNodes * 4;\n"
      "$extraVMs = (($tasks - $cores) + 3) / 4;\n"
      "$targetVMs = ($TargetDedicatedNodes + $extraVMs);\n"
      "$TargetDedicatedNodes = max(0,min($targetVMs,3));\n"
      "$NodeDeallocationOption = taskcompletion;";
  const auto out = eval(formula, inputs(9, 1));
  ASSERT_EQ(out.error_code, "") << out.error_message;
  EXPECT_EQ(result_of(out, "$extraVMs"), "2");
  EXPECT_EQ(out.target_dedicated, 3);
}

TEST(AutoscaleDocs, CpuBasedExampleIsOutsideTheSubset) {
  expect_error(
      "$totalDedicatedNodes =\n    (min($CPUPercent.GetSample(TimeInterval_Minute * 10)) > 0.7) "
      "?\n    ($CurrentDedicatedNodes * 1.1) : $CurrentDedicatedNodes;",
      "AutoScalingFormulaSyntaxError", "Line 2, Col 10: The service variable $CPUPercent");
}

TEST(AutoscaleDocs, MultiLineStatementWithCurrentNodes) {
  AutoscaleInputs in;
  in.current_dedicated = 10;
  in.pending_tasks = 5;
  const auto out = eval(
      "$total =\n    (min($PendingTasks.GetSample(TimeInterval_Minute * 10)) > 0.7) ?\n"
      "    ($CurrentDedicatedNodes * 1.1) : $CurrentDedicatedNodes;\n"
      "$TargetDedicatedNodes = min(400, $total)",
      in);
  ASSERT_EQ(out.error_code, "") << out.error_message;
  EXPECT_EQ(result_of(out, "$total"), "11");
  EXPECT_EQ(out.target_dedicated, 11);
}

TEST(AutoscaleResults, SdkRecordedEvaluation) {
  const auto out = eval("$TargetDedicatedNodes=3");
  EXPECT_EQ(out.results,
            "$TargetDedicatedNodes=3;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue");
  EXPECT_EQ(out.target_dedicated, 3);
  EXPECT_EQ(out.target_low_priority, 0);
  EXPECT_EQ(out.node_deallocation_option, "requeue");
}

TEST(AutoscaleResults, UserVariablesInOrdinalOrder) {
  const auto out = eval("b = 1; a = 2; $c = 3; B = 4; $TargetLowPriorityNodes = a + b");
  EXPECT_EQ(out.results,
            "$TargetDedicatedNodes=0;$TargetLowPriorityNodes=3;$NodeDeallocationOption=requeue;"
            "$c=3;B=4;a=2;b=1");
}

TEST(AutoscaleResults, ReassignmentKeepsTheLastValue) {
  const auto out = eval("$n = 1; $n = $n + 1; $n = $n * 10");
  EXPECT_EQ(result_of(out, "$n"), "20");
}

TEST(AutoscaleResults, NumberFormats) {
  EXPECT_EQ(value_of("0.5"), "0.5");
  EXPECT_EQ(value_of("1/3"), "0.3333333333333333");
  EXPECT_EQ(value_of("1e20"), "1E+20");
  EXPECT_EQ(value_of("0.00001"), "1E-05");
  EXPECT_EQ(value_of("-0"), "0");
  EXPECT_EQ(value_of("-7"), "-7");
  EXPECT_EQ(value_of(".25 * 4"), "1");
}

TEST(AutoscaleResults, VectorIntervalAndStringFormats) {
  EXPECT_EQ(value_of("$PendingTasks.GetSample(1) * 2", inputs(7)), "[14]");
  EXPECT_EQ(value_of("TimeInterval_Minute * 90"), "01:30:00");
  EXPECT_EQ(value_of("TimeInterval_Day * 2 + TimeInterval_Millisecond"), "2.00:00:00.0010000");
  EXPECT_EQ(value_of("-TimeInterval_Second"), "-00:00:01");
  EXPECT_EQ(value_of("terminate"), "terminate");
  EXPECT_EQ(value_of("\"some text\""), "some text");
}

TEST(AutoscaleTargets, RoundedDownAndClamped) {
  EXPECT_EQ(eval("$TargetDedicatedNodes = 2.9").target_dedicated, 2);
  EXPECT_EQ(eval("$TargetDedicatedNodes = -5").target_dedicated, 0);
  EXPECT_EQ(eval("$TargetDedicatedNodes = -0.5").target_dedicated, 0);
  EXPECT_EQ(eval("$TargetLowPriorityNodes = 1e12").target_low_priority, INT_MAX);
  const auto out = eval("$TargetDedicatedNodes = 2.9; $TargetLowPriorityNodes = -1");
  EXPECT_EQ(out.results,
            "$TargetDedicatedNodes=2;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue");
}

TEST(AutoscaleTargets, UnassignedTargetsKeepThePoolsTargets) {
  AutoscaleInputs in;
  in.target_dedicated = 6;
  in.target_low_priority = 2;
  const auto out = eval("$x = $TargetDedicatedNodes / 2 + $TargetLowPriorityNodes", in);
  EXPECT_EQ(result_of(out, "$x"), "5");
  EXPECT_EQ(out.target_dedicated, 6);
  EXPECT_EQ(out.target_low_priority, 2);
}

TEST(AutoscaleTargets, TargetsFallBackToCurrentNodes) {
  AutoscaleInputs in;
  in.current_dedicated = 4;
  in.current_low_priority = 3;
  const auto out = eval("$x = $TargetDedicatedNodes * 10 + $TargetLowPriorityNodes", in);
  EXPECT_EQ(result_of(out, "$x"), "43");
  EXPECT_EQ(value_of("$CurrentDedicatedNodes + $CurrentLowPriorityNodes", in), "7");
  EXPECT_EQ(value_of("$CurrentDedicated", in), "4");
}

TEST(AutoscaleTargets, ReadAfterAssignSeesTheRawValue) {
  const auto out = eval("$TargetDedicatedNodes = 2.5; $x = $TargetDedicatedNodes * 2");
  EXPECT_EQ(result_of(out, "$x"), "5");
  EXPECT_EQ(out.target_dedicated, 2);
}

TEST(AutoscaleTargets, AliasesAndTheFullNameWins) {
  EXPECT_EQ(eval("$TargetDedicated = 4").target_dedicated, 4);
  EXPECT_EQ(eval("$TargetLowPriority = 3").target_low_priority, 3);
  EXPECT_EQ(eval("$TargetDedicatedNodes = 1; $TargetDedicated = 9").target_dedicated, 1);
  EXPECT_EQ(eval("$TargetDedicated = 9; $TargetDedicatedNodes = 1").target_dedicated, 1);
  EXPECT_EQ(eval("$TargetDedicated=5;$NodeDeallocationOption=requeue").results,
            "$TargetDedicatedNodes=5;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue");
}

TEST(AutoscaleTargets, DeallocationOptions) {
  for (std::string_view opt : {"requeue", "terminate", "taskcompletion", "retaineddata"}) {
    const auto out = eval("$NodeDeallocationOption = " + std::string(opt));
    EXPECT_EQ(out.node_deallocation_option, opt);
    EXPECT_EQ(result_of(out, "$NodeDeallocationOption"), opt);
  }
  EXPECT_EQ(eval("$NodeDeallocationOption = \"TaskCompletion\"").node_deallocation_option,
            "taskcompletion");
  EXPECT_EQ(eval("$NodeDeallocationOption = TERMINATE").node_deallocation_option, "terminate");
  EXPECT_EQ(value_of("$NodeDeallocationOption == requeue"), "1");
  expect_error("$NodeDeallocationOption = \"drain\"", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 1: $NodeDeallocationOption cannot be 'drain'");
  expect_error("$NodeDeallocationOption = 3", "AutoScalingFormulaSyntaxError",
               "cannot be a double");
}

TEST(AutoscaleOperators, ArithmeticPrecedence) {
  EXPECT_EQ(value_of("2 + 3 * 4"), "14");
  EXPECT_EQ(value_of("(2 + 3) * 4"), "20");
  EXPECT_EQ(value_of("10 - 4 - 3"), "3");
  EXPECT_EQ(value_of("100 / 10 / 5"), "2");
  EXPECT_EQ(value_of("-2 * 3"), "-6");
  EXPECT_EQ(value_of("2 * -3"), "-6");
  EXPECT_EQ(value_of("- -2"), "2");
  EXPECT_EQ(value_of("7 - 2 * 3 + 8 / 4"), "3");
  EXPECT_EQ(value_of("((((1 + 1))))"), "2");
}

TEST(AutoscaleOperators, ComparisonsAndLogic) {
  EXPECT_EQ(value_of("1 + 2 < 4 && 3 == 3"), "1");
  EXPECT_EQ(value_of("0 || 1 && 0"), "0");
  EXPECT_EQ(value_of("1 || 0 && 0"), "1");
  EXPECT_EQ(value_of("2 <= 2"), "1");
  EXPECT_EQ(value_of("2 >= 3"), "0");
  EXPECT_EQ(value_of("2 != 3"), "1");
  EXPECT_EQ(value_of("!0"), "1");
  EXPECT_EQ(value_of("!5"), "0");
  EXPECT_EQ(value_of("1 < 2 == 1"), "1");
  EXPECT_EQ(value_of("0.5 && 2"), "1");
  EXPECT_EQ(value_of("\"abc\" < \"abd\""), "1");
  EXPECT_EQ(value_of("TimeInterval_Hour > TimeInterval_Minute * 59"), "1");
}

TEST(AutoscaleOperators, TernaryIsRightAssociativeAndLoosest) {
  EXPECT_EQ(value_of("1 ? 2 : 0 ? 3 : 4"), "2");
  EXPECT_EQ(value_of("0 ? 2 : 0 ? 3 : 4"), "4");
  EXPECT_EQ(value_of("0 ? 2 : 1 ? 3 : 4"), "3");
  EXPECT_EQ(value_of("1 + 1 > 1 ? 10 + 1 : 20"), "11");
  EXPECT_EQ(value_of("1 ? 0 ? 5 : 6 : 7"), "6");
}

TEST(AutoscaleOperators, LazyEvaluationSkipsUntakenBranches) {
  EXPECT_EQ(value_of("1 ? 5 : 1 / 0"), "5");
  EXPECT_EQ(value_of("0 && 1 / 0"), "0");
  EXPECT_EQ(value_of("1 || undefinedVar"), "1");
}

TEST(AutoscaleOperators, VectorArithmetic) {
  EXPECT_EQ(value_of("$PendingTasks.GetSample(1) + $RunningTasks.GetSample(1)", inputs(3)), "[3]");
  EXPECT_EQ(value_of("10 - $PendingTasks.GetSample(1)", inputs(3)), "[7]");
  EXPECT_EQ(value_of("-$PendingTasks.GetSample(1)", inputs(3)), "[-3]");
}

TEST(AutoscaleOperators, IntervalArithmetic) {
  EXPECT_EQ(value_of("15 * TimeInterval_Minute"), "00:15:00");
  EXPECT_EQ(value_of("TimeInterval_Hour / 4"), "00:15:00");
  EXPECT_EQ(value_of("TimeInterval_Hour - TimeInterval_Minute"), "00:59:00");
  EXPECT_EQ(value_of("TimeInterval_Week"), "7.00:00:00");
}

TEST(AutoscaleFunctions, Aggregates) {
  const auto in = inputs(6);
  EXPECT_EQ(value_of("min(3, 1, 2)"), "1");
  EXPECT_EQ(value_of("max(3, 1, 2)"), "3");
  EXPECT_EQ(value_of("avg(1, 2, 3, 4)"), "2.5");
  EXPECT_EQ(value_of("sum(1, 2, 3)"), "6");
  EXPECT_EQ(value_of("len(1, 2, 3)"), "3");
  EXPECT_EQ(value_of("range(4, 9, 1)"), "8");
  EXPECT_EQ(value_of("max($PendingTasks.GetSample(1), 2)", in), "6");
  EXPECT_EQ(value_of("sum($PendingTasks.GetSample(1), $ActiveTasks.GetSample(1), 1)", in), "13");
  EXPECT_EQ(value_of("len($PendingTasks.GetSample(TimeInterval_Minute * 15), 1)", in), "2");
}

TEST(AutoscaleFunctions, Rounding) {
  EXPECT_EQ(value_of("floor(2.7)"), "2");
  EXPECT_EQ(value_of("floor(-2.2)"), "-3");
  EXPECT_EQ(value_of("ceil(2.1)"), "3");
  EXPECT_EQ(value_of("ceil(-2.7)"), "-2");
  EXPECT_EQ(value_of("round(2.4)"), "2");
  EXPECT_EQ(value_of("round(2.5)"), "2");
  EXPECT_EQ(value_of("round(3.5)"), "4");
  EXPECT_EQ(value_of("round(-2.5)"), "-2");
  EXPECT_EQ(value_of("ceil($PendingTasks.GetSample(1) / 4)", inputs(9)), "[3]");
}

TEST(AutoscaleFunctions, ArgumentErrors) {
  expect_error("$x = floor(1, 2)", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 6: floor() takes exactly one argument");
  expect_error("$x = max()", "AutoScalingFormulaSyntaxError", "max() needs at least one argument");
  expect_error("$x = max(1, TimeInterval_Hour)", "AutoScalingFormulaSyntaxError",
               "max() takes doubles and doubleVecs, not a timeinterval");
  expect_error("$x = round(\"a\")", "AutoScalingFormulaSyntaxError",
               "round() takes a double or doubleVec, not a string");
}

TEST(AutoscaleSamples, GetSampleForms) {
  const auto in = inputs(5);
  EXPECT_EQ(value_of("$PendingTasks.GetSample(1)", in), "[5]");
  EXPECT_EQ(value_of("$PendingTasks.GetSample(10)", in), "[5]");
  EXPECT_EQ(value_of("$PendingTasks.GetSample(TimeInterval_Minute * 15)", in), "[5]");
  EXPECT_EQ(value_of("$PendingTasks.GetSample(TimeInterval_Minute * 10, 95)", in), "[5]");
  EXPECT_EQ(value_of("$RunningTasks.GetSample(1 * TimeInterval_Minute, 6 * TimeInterval_Minute)"),
            "[0]");
  EXPECT_EQ(value_of("$RunningTasks.GetSample(60 * TimeInterval_Second, 120 * "
                     "TimeInterval_Second, 75)"),
            "[0]");
  EXPECT_EQ(value_of("$ActiveTasks.GetSamplePercent(TimeInterval_Minute * 15)", in), "100");
  EXPECT_EQ(value_of("$ActiveTasks.GetSamplePercent(TimeInterval_Zero, TimeInterval_Minute)"),
            "100");
}

TEST(AutoscaleSamples, SampleErrors) {
  expect_error("$x = $PendingTasks.GetSample(TimeInterval_Minute, 150)", "InsufficientSampleData",
               "Line 1, Col 20: Insufficient data from data set: $PendingTasks wanted 150%, "
               "received 100% (statement 1)");
  EXPECT_EQ(eval("$x = $PendingTasks.GetSample(TimeInterval_Minute, 150)").error_summary,
            "Autoscale evaluation failed due to insufficient sample data");
  expect_error("$x = $PendingTasks", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 6: $PendingTasks is a sample set; read it with");
  expect_error("$x = $PendingTasks.Count()", "AutoScalingFormulaSyntaxError",
               "The method 'Count' of $PendingTasks is outside the emulator's subset");
  expect_error("$x = $PendingTasks.GetSample(\"x\")", "AutoScalingFormulaSyntaxError",
               "GetSample takes (count), (timeinterval [, percent])");
  expect_error("$x = $PendingTasks.GetSample(1, 2)", "AutoScalingFormulaSyntaxError",
               "not (double, double)");
  expect_error("$x = $PendingTasks.GetSample(0)", "AutoScalingFormulaSyntaxError",
               "count of at least 1");
  expect_error("$x = $PendingTasks.GetSamplePercent(5)", "AutoScalingFormulaSyntaxError",
               "GetSamplePercent takes (timeinterval [, timeinterval])");
  expect_error("$x = $PendingTasks.GetSample(1, 2, 3, 4)", "AutoScalingFormulaSyntaxError",
               "GetSample() takes 1 to 3 arguments, not 4");
  expect_error("$x = $PendingTasks.GetSample", "AutoScalingFormulaSyntaxError",
               "Expected '(' but found end of formula");
  expect_error("$x = $PendingTasks.GetSample(1).foo", "AutoScalingFormulaSyntaxError",
               "Member access on 'GetSample'");
}

TEST(AutoscaleStatements, SeparatorsAndNewlines) {
  EXPECT_EQ(result_of(eval("$a = 1\n$b = $a + 1"), "$b"), "2");
  EXPECT_EQ(result_of(eval("$a = 1\r\n$b = $a + 1\r\n"), "$b"), "2");
  EXPECT_EQ(result_of(eval(";;$a = 1;;;\n\n$b = 2;"), "$b"), "2");
  EXPECT_EQ(result_of(eval("$a = 1 +\n 2\n$b = 3"), "$a"), "3");
  EXPECT_EQ(result_of(eval("$a = 5\n - 2"), "$a"), "3");
  EXPECT_EQ(result_of(eval("$a = (1 +\n 2) * 2 // note\n$b = 0"), "$a"), "6");
  EXPECT_EQ(result_of(eval("cores = 4; $TargetDedicatedNodes = cores"), "cores"), "4");
  EXPECT_EQ(result_of(eval("$a = 1 /* a\nblock */ $b = 2"), "$b"), "2");
  EXPECT_EQ(result_of(eval("min = 3; $x = min(min, 5)"), "$x"), "3");
  expect_error("$a = 1 $b = 2", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 8: Expected ';' or a new line but found '$b' (statement 1)");
}

TEST(AutoscaleErrors, SyntaxMessagesNameThePlace) {
  expect_error("$a = (1 + 2", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 12: Expected ')' but found end of formula (statement 1)");
  expect_error("$a = 1 +", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 9: Expected an expression but found end of formula");
  expect_error("$a = 1;\n$b 2", "AutoScalingFormulaSyntaxError",
               "Line 2, Col 4: Expected '=' after '$b' but found number 2 (statement 2)");
  expect_error("= 3", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 1: Expected a variable to assign but found '='");
  expect_error("$a == 3", "AutoScalingFormulaSyntaxError",
               "Expected '=' after '$a' but found '=='");
  expect_error("$a = 1 ? 2", "AutoScalingFormulaSyntaxError",
               "Expected ':' of the '?' at line 1, col 8");
  expect_error("$a = max(1 2)", "AutoScalingFormulaSyntaxError", "Expected ',' or ')'");
  expect_error("$a = 1;\n$b = 2;\n$c = foo(1)", "AutoScalingFormulaSyntaxError",
               "Line 3, Col 6: Unknown function 'foo' (supported: min, max, avg, sum, len, "
               "range, floor, ceil, round) (statement 3)");
  expect_error("$a = time()", "AutoScalingFormulaSyntaxError",
               "The function 'time' is outside the emulator's subset");
  expect_error("$a = $SucceededTasks.GetSample(1)", "AutoScalingFormulaSyntaxError",
               "The service variable $SucceededTasks is outside the emulator's subset");
  expect_error("$a = TimeInterval_Fortnight", "AutoScalingFormulaSyntaxError",
               "Unknown time interval constant 'TimeInterval_Fortnight'");
  expect_error("$curTime = 1; $x = $curTime.hour", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 28: Member access on '$curTime'");
  expect_error("stop();", "AutoScalingFormulaSyntaxError", "Expected '=' after 'stop'");
}

TEST(AutoscaleErrors, LexingMessages) {
  expect_error("$a = 1 # 2", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 8: Unexpected character '#' (statement 1)");
  expect_error("$a = 1 & 2", "AutoScalingFormulaSyntaxError", "did you mean '&&'?");
  expect_error("$a = 1 | 2", "AutoScalingFormulaSyntaxError", "did you mean '||'?");
  expect_error("$a = \"open", "AutoScalingFormulaSyntaxError", "Col 6: Unterminated string");
  expect_error("$a = 1 /* open", "AutoScalingFormulaSyntaxError", "Col 8: Unterminated /* comment");
  expect_error("$ = 1", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 1: Expected a variable name after '$'");
  expect_error("$a = 1e999", "AutoScalingFormulaSyntaxError", "Number '1e999' is out of range");
  expect_error("$a = \xC3\xA9", "AutoScalingFormulaSyntaxError", "Unexpected character \\xC3");
  // Columns count characters: the 'é' is one column.
  expect_error("$é = 1", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 1: Expected a variable name after '$'");
  expect_error("$a = \"\xC3\xA9\" ; $b = 1 #", "AutoScalingFormulaSyntaxError",
               "Line 1, Col 19: Unexpected character '#'");
}

TEST(AutoscaleErrors, UndefinedAndReadOnlyNames) {
  expect_error("$a = 1;\n$b = $c + 1", "AutoScalingFormulaSyntaxError",
               "Line 2, Col 6: Undefined variable '$c' (statement 2)");
  expect_error("x = y", "AutoScalingFormulaSyntaxError", "Undefined variable 'y'");
  expect_error("$PendingTasks = 1", "AutoScalingFormulaSyntaxError",
               "Cannot assign to the read-only service variable $PendingTasks");
  expect_error("$CurrentDedicatedNodes = 1", "AutoScalingFormulaSyntaxError",
               "Cannot assign to the read-only service variable");
  expect_error("$CPUPercent = 1", "AutoScalingFormulaSyntaxError",
               "Cannot assign to the read-only service variable $CPUPercent");
  expect_error("TimeInterval_Minute = 1", "AutoScalingFormulaSyntaxError",
               "Cannot assign to the constant 'TimeInterval_Minute'");
  expect_error("requeue = 1", "AutoScalingFormulaSyntaxError", "Cannot assign to the constant");
}

TEST(AutoscaleErrors, TypeMismatches) {
  expect_error("$TargetDedicatedNodes = $PendingTasks.GetSample(1)",
               "AutoScalingFormulaSyntaxError",
               "Line 1, Col 1: $TargetDedicatedNodes needs a double, not a doubleVec");
  expect_error("$a = TimeInterval_Minute + 1", "AutoScalingFormulaSyntaxError",
               "Type mismatch: '+' cannot combine a timeinterval and a double");
  expect_error("$a = $PendingTasks.GetSample(1) < 3", "AutoScalingFormulaSyntaxError",
               "'<' cannot combine a doubleVec and a double");
  expect_error("$a = $PendingTasks.GetSample(1) ? 1 : 2", "AutoScalingFormulaSyntaxError",
               "the condition of '?' must be a double");
  expect_error("$a = !TimeInterval_Hour", "AutoScalingFormulaSyntaxError", "'!' needs a double");
  expect_error("$a = \"x\" && 1", "AutoScalingFormulaSyntaxError", "'&&' needs doubles");
  expect_error("$a = -\"x\"", "AutoScalingFormulaSyntaxError", "'-' cannot negate a string");
  expect_error("$a = 2 / TimeInterval_Hour", "AutoScalingFormulaSyntaxError",
               "'/' cannot combine a double and a timeinterval");
}

TEST(AutoscaleErrors, RuntimeFailures) {
  expect_error("$a = 2;\n$b = 1 / ($a - 2)", "InvalidAutoScalingSettings",
               "Line 2, Col 8: Division by zero (statement 2)");
  expect_error("$a = $PendingTasks.GetSample(1) / 0", "InvalidAutoScalingSettings",
               "Division by zero");
  expect_error("$a = TimeInterval_Hour / 0", "InvalidAutoScalingSettings", "Division by zero");
  expect_error("$a = 1e300 * 1e300", "InvalidAutoScalingSettings", "not a finite number");
  expect_error("$a = sum(1e308, 1e308)", "InvalidAutoScalingSettings", "not a finite number");
}

TEST(AutoscaleErrors, FailedRunAppliesNothingAndReportsPriorTargets) {
  AutoscaleInputs in;
  in.target_dedicated = 2;
  const auto out = eval("$TargetDedicatedNodes = 9; something_useless", in);
  EXPECT_EQ(out.error_code, "AutoScalingFormulaSyntaxError");
  EXPECT_EQ(out.error_summary, "The specified auto-scaling formula has a syntax error.");
  EXPECT_EQ(out.results,
            "$TargetDedicatedNodes=2;$TargetLowPriorityNodes=0;$NodeDeallocationOption=requeue");
  EXPECT_FALSE(out.target_dedicated.has_value());
  EXPECT_EQ(out.node_deallocation_option, "requeue");
}

TEST(AutoscaleErrors, EmptyFormula) {
  expect_error("", "AutoScalingFormulaSyntaxError", "Line 1, Col 1: The formula has no statements");
  expect_error("  \n// only a comment\n;;", "AutoScalingFormulaSyntaxError",
               "The formula has no statements");
}

TEST(AutoscaleLimits, FormulaLength) {
  std::string ok = "$a = 1;";
  ok += std::string(kAutoscaleFormulaMaxChars - ok.size(), ' ');
  EXPECT_EQ(eval(ok).error_code, "");
  expect_error(ok + " ", "AutoScaleFormulaTooLong",
               "Line 1, Col 1: The formula has 8193 characters; the limit is 8192");
  EXPECT_EQ(eval(ok + " ").error_summary,
            "The specified auto-scaling formula exceeds lengths limit.");
}

TEST(AutoscaleLimits, StatementCount) {
  std::string formula;
  for (int i = 0; i < kAutoscaleMaxStatements; ++i) formula += "$a = " + std::to_string(i) + ";";
  const auto out = eval(formula);
  EXPECT_EQ(out.error_code, "") << out.error_message;
  EXPECT_EQ(result_of(out, "$a"), "99");
  expect_error(formula + "$b = 1", "AutoScaleFormulaTooLong",
               "The formula has more than 100 statements (statement 101)");
}

TEST(AutoscaleLimits, NestingIsBounded) {
  EXPECT_EQ(value_of(std::string(50, '(') + "1" + std::string(50, ')')), "1");
  expect_error("$a = " + std::string(3000, '(') + "1" + std::string(3000, ')'),
               "AutoScalingFormulaSyntaxError", "nested more than 64 levels deep");
  expect_error("$a = " + std::string(3000, '-') + "1", "AutoScalingFormulaSyntaxError",
               "nested more than 64 levels deep");
  expect_error("$a = " + std::string(3000, '!') + "1", "AutoScalingFormulaSyntaxError",
               "nested more than 64 levels deep");
  std::string ternaries = "$a = ";
  for (int i = 0; i < 1000; ++i) ternaries += "1 ? ";
  expect_error(ternaries, "AutoScalingFormulaSyntaxError", "nested more than 64 levels deep");
}

TEST(AutoscaleLimits, LongOperatorChainsAreBounded) {
  std::string chain = "$a = 1";
  for (int i = 0; i < 200; ++i) chain += "+1";
  EXPECT_EQ(result_of(eval(chain), "$a"), "201");
  std::string long_chain = "$a = 1";
  for (int i = 0; i < 3000; ++i) long_chain += "+1";
  expect_error(long_chain, "AutoScalingFormulaSyntaxError", "The expression is too complex");
  std::string wide = "$a = sum(1";
  for (int i = 0; i < 3000; ++i) wide += ",1";
  EXPECT_EQ(result_of(eval(wide + ")"), "$a"), "3001");
}

TEST(AutoscaleSubset, IsDescribed) {
  EXPECT_NE(autoscale_subset().find("GetSample"), std::string_view::npos);
  EXPECT_NE(autoscale_subset().find("$NodeDeallocationOption"), std::string_view::npos);
}

}  // namespace
}  // namespace trainyard::emu::autoscale_test
