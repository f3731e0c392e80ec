// Autoscale formula evaluator of `trainyard emulator` (Pools_EvaluatePoolAutoScale and the
// periodic autoscale runs).
//
// The subset evaluated (from learn.microsoft.com "Create a formula to automatically scale
// compute nodes in a Batch pool"); anything else is an AutoScalingFormulaSyntaxError that
// names the construct and what the subset offers instead:
//   - Statements `name = expr`, separated by `;` and/or line breaks (a statement may span
//     lines; a line break ends it only where the next line starts with a name). Empty
//     statements (`;;`) are skipped; `//` and `/* */` comments are allowed. At most 100
//     statements and 8192 characters (AutoScaleFormulaTooLong beyond either).
//   - User variables `$myVar` and plain `myVar` (different names), read after assignment.
//   - Numbers (`70`, `0.7`, `.5`, `1e3`), strings ("text"), parentheses, and the operators,
//     loosest first: `?:` (right-associative), `||`, `&&`, `== !=`, `< <= > >=`, `+ -`,
//     `* /`, unary `- !`. Types as the docs' table: double; doubleVec (element-wise with a
//     double or an equally long doubleVec); timeinterval (`+ -` of two, `*` by a double,
//     `/` by a double, comparisons); strings compare ordinally. `&&`, `||` and `?:` evaluate
//     lazily; true is nonzero, and comparisons give 1 or 0.
//   - Functions min, max, avg, sum, len, range over a doubleVecList (doubles and doubleVecs,
//     flattened); floor, ceil, round of a double or element-wise of a doubleVec (round takes
//     halves to even, as .NET's Math.Round).
//   - Samples $PendingTasks, $ActiveTasks, $RunningTasks, read only through GetSample(count),
//     GetSample(interval [, percent]), GetSample(start, end [, percent]) and
//     GetSamplePercent(interval [, end]). The emulator keeps one sample, the newest value:
//     GetSample gives the one-element doubleVec [value], GetSamplePercent gives 100, and a
//     required percent above 100 fails InsufficientSampleData as Batch words it.
//   - $CurrentDedicatedNodes (alias $CurrentDedicated), $CurrentLowPriorityNodes (read-only).
//   - $TargetDedicatedNodes, $TargetLowPriorityNodes (read: the pool's target before the run)
//     and their aliases $TargetDedicated, $TargetLowPriority (the full name wins when both are
//     set). The applied target is the final double rounded down and clamped to
//     [0, 2147483647], and results shows that integer.
//   - $NodeDeallocationOption = requeue | terminate | taskcompletion | retaineddata (a bare
//     word or a string, any case; written lowercase); default requeue.
//   - TimeInterval_Zero/_100ns/_Microsecond/_Millisecond/_Second/_Minute/_Hour/_Day/_Week/
//     _Year (a year is 365 days).
// Outside it: the other service variables ($CPUPercent, $SucceededTasks, ...), the methods
// Count/GetSamplePeriod/HistoryBeginTime, the functions lg, ln, log, norm, percentile, rand,
// std, stop, time, val, and timestamps.
//
// results: `$TargetDedicatedNodes=N;$TargetLowPriorityNodes=N;$NodeDeallocationOption=opt`
// then `;name=value` for every user variable in ordinal name order, no trailing `;` (as the
// docs' AutoScaleRun.Results sample and the SDKs' recorded evaluateautoscale responses).
// Doubles print as .NET does ("7", "0.5", "1E+20"), doubleVecs as "[1,2]", timeintervals as
// .NET TimeSpan ("01:30:00", "2.00:00:00"). A failed run applies nothing and its results hold
// the targets before the run with the default deallocation option.
//
// Errors: error_code, error_summary (Batch's fixed message for the code) and error_message
// "Line L, Col C: what (statement N)" (the shape of Batch's error.values "Message").
//   AutoScalingFormulaSyntaxError  syntax, unknown or out-of-subset name, undefined variable,
//                                  type mismatch, assignment to a read-only name
//   AutoScaleFormulaTooLong        over 8192 characters or 100 statements
//   InsufficientSampleData         GetSample asking for more than 100% of the samples
//   InvalidAutoScalingSettings     division by zero, a result that is not finite
//   InternalError                  out of memory (nothing else throws)
#include <algorithm>
#include <charconv>
#include <climits>
#include <cmath>
#include <cstdio>
#include <string>

#include "autoscale_internal.hpp"
#include "emulator/autoscale.hpp"

namespace trainyard::emu {

namespace detail = autoscale_detail;

namespace {

constexpr std::string_view kSubset =
    "statements `name = expr` split by ';' or new lines; numbers, strings, ( ), + - * /, "
    "unary - !, < <= > >= == !=, && ||, ?:; min max avg sum len range floor ceil round; "
    "$PendingTasks/$ActiveTasks/$RunningTasks .GetSample/.GetSamplePercent; "
    "$CurrentDedicatedNodes $CurrentLowPriorityNodes; $TargetDedicatedNodes "
    "$TargetLowPriorityNodes $NodeDeallocationOption; TimeInterval_* constants";

/// Rounds down and clamps a target to what a pool can take.
int to_target(double x) {
  const double down = std::floor(x);
  if (!(down > 0)) return 0;
  if (down >= static_cast<double>(INT_MAX)) return INT_MAX;
  return static_cast<int>(down);
}

std::string results_text(int dedicated, int low_priority, const std::string& deallocation) {
  return "$TargetDedicatedNodes=" + std::to_string(dedicated) +
         ";$TargetLowPriorityNodes=" + std::to_string(low_priority) +
         ";$NodeDeallocationOption=" + deallocation;
}

std::string two_digits(long long v) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "%02lld", v);
  return buf;
}

/// A timeinterval as .NET's TimeSpan.ToString(): [-][d.]hh:mm:ss[.fffffff].
std::string format_interval(double seconds) {
  const double ticks_d = std::round(seconds * 1e7);
  if (!(std::fabs(ticks_d) < 9e18)) return detail::format_number(seconds);
  long long ticks = static_cast<long long>(ticks_d);
  std::string out = ticks < 0 ? "-" : "";
  if (ticks < 0) ticks = -ticks;
  constexpr long long kPerSecond = 10'000'000;
  const long long total_seconds = ticks / kPerSecond;
  const long long fraction = ticks % kPerSecond;
  const long long days = total_seconds / 86400;
  if (days > 0) out += std::to_string(days) + ".";
  out += two_digits(total_seconds / 3600 % 24) + ":" + two_digits(total_seconds / 60 % 60) + ":" +
         two_digits(total_seconds % 60);
  if (fraction > 0) {
    char buf[16];
    std::snprintf(buf, sizeof buf, ".%07lld", fraction);
    out += buf;
  }
  return out;
}

AutoscaleOutcome failed(AutoscaleOutcome out, const detail::Failure& f) {
  out.error_code = std::string(f.code);
  out.error_summary = std::string(f.summary);
  out.error_message =
      "Line " + std::to_string(f.pos.line) + ", Col " + std::to_string(f.pos.col) + ": " + f.detail;
  if (f.statement > 0) out.error_message += " (statement " + std::to_string(f.statement) + ")";
  return out;
}

AutoscaleOutcome evaluate(std::string_view formula, const AutoscaleInputs& in) {
  const int dedicated = in.target_dedicated.value_or(in.current_dedicated);
  const int low_priority = in.target_low_priority.value_or(in.current_low_priority);
  AutoscaleOutcome out;
  out.results = results_text(std::max(dedicated, 0), std::max(low_priority, 0), "requeue");
  if (formula.size() > kAutoscaleFormulaMaxChars) {
    return failed(std::move(out),
                  detail::make_failure({},
                                       "The formula has " + std::to_string(formula.size()) +
                                           " characters; the limit is " +
                                           std::to_string(kAutoscaleFormulaMaxChars),
                                       detail::kTooLong));
  }
  detail::Program program;
  if (auto f = detail::parse(formula, program)) return failed(std::move(out), *f);
  detail::EvalState st;
  st.target_dedicated = st.alias_dedicated = dedicated;
  st.target_low_priority = st.alias_low_priority = low_priority;
  if (auto f = detail::run(program, in, st)) return failed(std::move(out), *f);

  const double ded =
      st.dedicated_set || !st.alias_dedicated_set ? st.target_dedicated : st.alias_dedicated;
  const double low = st.low_priority_set || !st.alias_low_priority_set ? st.target_low_priority
                                                                       : st.alias_low_priority;
  out.target_dedicated = to_target(ded);
  out.target_low_priority = to_target(low);
  out.node_deallocation_option = st.deallocation;
  out.results = results_text(*out.target_dedicated, *out.target_low_priority, st.deallocation);
  for (const auto& [name, value] : st.user) {
    out.results += ";" + name + "=" + detail::format_value(value);
  }
  return out;
}

}  // namespace

namespace autoscale_detail {

std::string format_number(double x) {
  if (x == 0) return "0";
  if (std::fabs(x) < 1e15 && x == std::floor(x)) {
    return std::to_string(static_cast<long long>(x));
  }
  char buf[64];
  const auto [end, ec] = std::to_chars(buf, buf + sizeof buf, x);
  if (ec != std::errc()) return "NaN";
  std::string s(buf, end);
  for (char& c : s) {
    if (c == 'e') c = 'E';
  }
  return s;
}

std::string format_value(const Value& v) {
  switch (v.kind) {
    case Kind::Double:
      return format_number(v.num);
    case Kind::Interval:
      return format_interval(v.num);
    case Kind::String:
      return v.str;
    case Kind::Vector:
      break;
  }
  std::string out = "[";
  for (size_t i = 0; i < v.vec.size(); ++i) {
    if (i > 0) out += ",";
    out += format_number(v.vec[i]);
  }
  return out + "]";
}

std::string_view kind_name(Kind k) {
  switch (k) {
    case Kind::Double:
      return "double";
    case Kind::Vector:
      return "doubleVec";
    case Kind::Interval:
      return "timeinterval";
    case Kind::String:
      return "string";
  }
  return "value";
}

}  // namespace autoscale_detail

AutoscaleOutcome evaluate_autoscale(std::string_view formula, const AutoscaleInputs& in) {
  try {
    return evaluate(formula, in);
  } catch (...) {
    // Only allocation can throw; report it as Batch reports its own failures.
    AutoscaleOutcome out;
    out.error_code = "InternalError";
    out.error_summary = "The server encountered an internal error. Please retry the request.";
    out.error_message = "Line 1, Col 1: The formula could not be evaluated";
    return out;
  }
}

std::string_view autoscale_subset() {
  return kSubset;
}

}  // namespace trainyard::emu
