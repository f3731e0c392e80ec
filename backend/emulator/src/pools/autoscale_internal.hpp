// Internals of the autoscale formula evaluator: tokens, syntax tree, parser and evaluator.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "emulator/autoscale.hpp"

namespace trainyard::emu::autoscale_detail {

/// Deepest nesting of parentheses, unary operators and ternaries the parser follows.
inline constexpr int kMaxParseDepth = 64;
/// Deepest syntax tree the parser builds (long operator chains count one level per operator).
inline constexpr int kMaxTreeDepth = 256;

/// The error codes, with the fixed `error.message` Batch gives each.
inline constexpr std::string_view kSyntaxError = "AutoScalingFormulaSyntaxError";
inline constexpr std::string_view kSyntaxSummary =
    "The specified auto-scaling formula has a syntax error.";
inline constexpr std::string_view kTooLong = "AutoScaleFormulaTooLong";
inline constexpr std::string_view kTooLongSummary =
    "The specified auto-scaling formula exceeds lengths limit.";
inline constexpr std::string_view kInsufficientData = "InsufficientSampleData";
inline constexpr std::string_view kInsufficientSummary =
    "Autoscale evaluation failed due to insufficient sample data";
inline constexpr std::string_view kInvalidSettings = "InvalidAutoScalingSettings";
inline constexpr std::string_view kInvalidSettingsSummary =
    "The specified auto-scaling settings are not valid.";

/// A 1-based place in the formula (columns count characters, not UTF-8 bytes).
struct Pos {
  int line = 1;
  int col = 1;
};

/// Why a formula failed.
struct Failure {
  std::string_view code = kSyntaxError;
  std::string_view summary = kSyntaxSummary;
  std::string detail;  ///< what went wrong, without the place
  Pos pos;
  int statement = 0;  ///< 1-based; 0 when no statement applies
};

/// Builds a Failure with a code other than the syntax error.
Failure make_failure(Pos pos, std::string detail, std::string_view code = kSyntaxError);

enum class Tok : uint8_t {
  End,
  Invalid,  ///< a lexing error; its text says what
  Number,
  String,
  Ident,
  Var,
  LParen,
  RParen,
  Comma,
  Semi,
  Dot,
  Assign,
  Plus,
  Minus,
  Star,
  Slash,
  Not,
  Lt,
  Le,
  Gt,
  Ge,
  Eq,
  Ne,
  And,
  Or,
  Question,
  Colon,
};

struct Token {
  Tok kind = Tok::End;
  std::string text;  ///< a name (with `$` for variables), string contents, or Invalid's complaint
  double number = 0;
  Pos pos;
  bool newline_before = false;  ///< a line break lies between this token and the one before
};

/// Splits `formula` into tokens; the list always ends with End, and stops at an Invalid.
std::vector<Token> tokenize(std::string_view formula);

/// An operator token as written, e.g. `<=`.
std::string_view op_text(Tok k);
/// How a token reads in an error message, e.g. `'+'`, `'$tasks'`, `end of formula`.
std::string describe(const Token& tok);
/// `text` made safe for a one-line message (control and non-ASCII bytes as \xNN, cut at 64).
std::string printable(std::string_view text);

enum class Builtin : uint8_t { Min, Max, Avg, Sum, Len, Range, Floor, Ceil, Round };
enum class Method : uint8_t { GetSample, GetSamplePercent };
enum class Service : uint8_t {
  None,
  PendingTasks,
  ActiveTasks,
  RunningTasks,
  CurrentDedicated,
  CurrentLowPriority,
  TargetDedicated,
  TargetLowPriority,
  TargetDedicatedAlias,    ///< $TargetDedicated
  TargetLowPriorityAlias,  ///< $TargetLowPriority
  NodeDeallocation,
};

/// What the subset offers, for error messages.
inline constexpr std::string_view kFunctionList =
    "min, max, avg, sum, len, range, floor, ceil, round";
inline constexpr std::string_view kServiceList =
    "$PendingTasks, $ActiveTasks, $RunningTasks, $CurrentDedicatedNodes, "
    "$CurrentLowPriorityNodes, $TargetDedicatedNodes, $TargetLowPriorityNodes, "
    "$NodeDeallocationOption";

/// The service variable named `name` (with `$`, case-sensitive), when in the subset.
std::optional<Service> find_service(std::string_view name);
/// Whether `name` is one of Batch's service variables outside the subset ($CPUPercent, …).
bool is_unsupported_service(std::string_view name);
/// The function named `name`, when in the subset.
std::optional<Builtin> find_builtin(std::string_view name);
/// Whether `name` is one of Batch's functions outside the subset (time, rand, …).
bool is_unsupported_function(std::string_view name);
/// Seconds in the TimeInterval_* constant `name`.
std::optional<double> find_interval(std::string_view name);
/// The deallocation option spelled `name` in any case, in its lowercase spelling.
std::optional<std::string_view> find_deallocation(std::string_view name);
/// Whether `s` is a sample set ($PendingTasks, $ActiveTasks, $RunningTasks).
bool is_sample(Service s);
/// Whether a formula may assign `s`.
bool is_writable(Service s);

enum class NodeKind : uint8_t {
  Number,
  String,
  Interval,  ///< a TimeInterval_* constant; number holds seconds
  UserVar,
  ServiceVar,
  Unary,
  Binary,
  Ternary,
  Call,
  SampleMethod,  ///< `$PendingTasks.GetSample(…)`; service names the set
};

struct Node {
  NodeKind kind = NodeKind::Number;
  Pos pos;  ///< the operator, name or literal
  double number = 0;
  std::string text;  ///< string contents or a variable's name
  Tok op = Tok::End;
  Service service = Service::None;
  Builtin builtin = Builtin::Min;
  Method method = Method::GetSample;
  int depth = 1;
  std::vector<std::unique_ptr<Node>> kids;
};

/// `target = value`.
struct Statement {
  std::string target;  ///< as written, with `$` when it has one
  Service service = Service::None;
  Pos pos;
  int number = 0;  ///< 1-based
  std::unique_ptr<Node> value;
};

struct Program {
  std::vector<Statement> statements;
};

/// Parses `formula`; nullopt when it parsed, else the first problem.
std::optional<Failure> parse(std::string_view formula, Program& out);

enum class Kind : uint8_t { Double, Vector, Interval, String };

/// A formula value: double, doubleVec, timeinterval (seconds in num) or string.
struct Value {
  Kind kind = Kind::Double;
  double num = 0;
  std::vector<double> vec;
  std::string str;
};

/// The variables after a run.
struct EvalState {
  double target_dedicated = 0;
  double target_low_priority = 0;
  double alias_dedicated = 0;
  double alias_low_priority = 0;
  bool dedicated_set = false;
  bool low_priority_set = false;
  bool alias_dedicated_set = false;
  bool alias_low_priority_set = false;
  std::string deallocation = "requeue";
  std::map<std::string, Value> user;  ///< ordered by name, as results lists them
};

/// What a function or sample method gave: a value, or what was wrong with its arguments.
struct CallResult {
  Value value;
  std::string error;  ///< empty on success
  std::string_view code = kSyntaxError;
};

/// Applies the function `b` (spelled `name`) to its evaluated arguments.
CallResult call_builtin(Builtin b, std::string_view name, std::vector<Value> args);
/// GetSample / GetSamplePercent of the sample set `set` whose newest value is `newest`.
CallResult call_sample(Method m, std::string_view set, double newest,
                       const std::vector<Value>& args);

/// Runs `program` statement by statement; nullopt on success.
std::optional<Failure> run(const Program& program, const AutoscaleInputs& in, EvalState& state);

/// A double as Batch's results text writes it ("7", "0.5", "1E+20").
std::string format_number(double x);
/// Any value as results text writes it ("[1,2]", "01:30:00", "taskcompletion").
std::string format_value(const Value& v);
/// The type's name in formula docs: double, doubleVec, timeinterval, string.
std::string_view kind_name(Kind k);

}  // namespace trainyard::emu::autoscale_detail
