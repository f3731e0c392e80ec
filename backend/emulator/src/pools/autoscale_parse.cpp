// Recursive-descent parser of autoscale formulas into statements of expression trees.
#include <algorithm>
#include <array>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "autoscale_internal.hpp"

namespace trainyard::emu::autoscale_detail {

namespace {

/// Binary operators by precedence level, loosest first.
constexpr std::array<std::array<Tok, 4>, 6> kLevels{{
    {Tok::Or, Tok::End, Tok::End, Tok::End},
    {Tok::And, Tok::End, Tok::End, Tok::End},
    {Tok::Eq, Tok::Ne, Tok::End, Tok::End},
    {Tok::Lt, Tok::Le, Tok::Gt, Tok::Ge},
    {Tok::Plus, Tok::Minus, Tok::End, Tok::End},
    {Tok::Star, Tok::Slash, Tok::End, Tok::End},
}};

using NodePtr = std::unique_ptr<Node>;

class Parser {
 public:
  explicit Parser(std::vector<Token> toks) : toks_(std::move(toks)) {}

  std::optional<Failure> run(Program& out) {
    skip_semicolons();
    while (!failed() && cur().kind != Tok::End) {
      if (!statement(out)) break;
      if (cur().kind == Tok::Semi) {
        skip_semicolons();
      } else if (cur().kind != Tok::End &&
                 !(cur().newline_before && (is(Tok::Var) || is(Tok::Ident)))) {
        unexpected("';' or a new line");
      }
    }
    if (!failed() && out.statements.empty()) {
      fail(cur().pos, "The formula has no statements");
    }
    return failure_;
  }

 private:
  /// Counts one level of nesting for as long as it lives.
  class Nest {
   public:
    explicit Nest(Parser& p) : p_(p) { ++p_.depth_; }
    ~Nest() { --p_.depth_; }
    Nest(const Nest&) = delete;
    Nest& operator=(const Nest&) = delete;
    bool too_deep() const { return p_.depth_ > kMaxParseDepth; }

   private:
    Parser& p_;
  };

  const Token& cur() const { return toks_[i_]; }
  const Token& ahead() const { return toks_[std::min(i_ + 1, toks_.size() - 1)]; }
  bool is(Tok k) const { return cur().kind == k; }
  void advance() {
    if (i_ + 1 < toks_.size()) ++i_;
  }
  bool failed() const { return failure_.has_value(); }
  void skip_semicolons() {
    while (is(Tok::Semi)) advance();
  }

  NodePtr fail(Pos pos, std::string detail, std::string_view code = kSyntaxError) {
    if (!failed()) {
      failure_ = make_failure(pos, std::move(detail), code);
      failure_->statement = statement_;
    }
    return nullptr;
  }

  /// Fails at the current token, which is not `expected`; a lexing error reports itself.
  NodePtr unexpected(std::string_view expected) {
    if (is(Tok::Invalid)) return fail(cur().pos, cur().text);
    return fail(cur().pos, "Expected " + std::string(expected) + " but found " + describe(cur()));
  }

  bool expect(Tok k, std::string_view what) {
    if (is(k)) {
      advance();
      return true;
    }
    unexpected(what);
    return false;
  }

  NodePtr make(NodeKind kind, Pos pos, std::vector<NodePtr> kids = {}) {
    auto n = std::make_unique<Node>();
    n->kind = kind;
    n->pos = pos;
    for (const auto& k : kids) n->depth = std::max(n->depth, k->depth + 1);
    n->kids = std::move(kids);
    if (n->depth > kMaxTreeDepth) {
      return fail(pos, "The expression is too complex (more than " + std::to_string(kMaxTreeDepth) +
                           " nested operations)");
    }
    return n;
  }

  bool statement(Program& out) {
    ++statement_;
    const Token target = cur();
    if (statement_ > kAutoscaleMaxStatements) {
      fail(target.pos,
           "The formula has more than " + std::to_string(kAutoscaleMaxStatements) + " statements",
           kTooLong);
      return false;
    }
    if (!is(Tok::Var) && !is(Tok::Ident)) {
      unexpected("a variable to assign");
      return false;
    }
    Statement st;
    st.target = target.text;
    st.pos = target.pos;
    st.number = statement_;
    if (!check_target(target, st)) return false;
    advance();
    if (!expect(Tok::Assign, "'=' after " + describe(target))) return false;
    st.value = expr();
    if (failed()) return false;
    out.statements.push_back(std::move(st));
    return true;
  }

  bool check_target(const Token& target, Statement& st) {
    const std::string shown = printable(target.text);
    if (target.kind == Tok::Var) {
      if (auto s = find_service(target.text)) {
        if (!is_writable(*s)) {
          fail(target.pos, "Cannot assign to the read-only service variable " + shown);
          return false;
        }
        st.service = *s;
      } else if (is_unsupported_service(target.text)) {
        fail(target.pos, "Cannot assign to the read-only service variable " + shown);
        return false;
      }
      return true;
    }
    if (target.text.starts_with("TimeInterval_") || find_deallocation(target.text)) {
      fail(target.pos, "Cannot assign to the constant '" + shown + "'");
      return false;
    }
    return true;
  }

  NodePtr expr() { return ternary(); }

  NodePtr ternary() {
    Nest nest(*this);
    if (nest.too_deep()) return too_deep();
    NodePtr cond = binary(0);
    if (!cond || !is(Tok::Question)) return cond;
    const Pos pos = cur().pos;
    advance();
    NodePtr yes = ternary();
    if (!yes) return nullptr;
    if (!expect(Tok::Colon, "':' of the '?' at line " + std::to_string(pos.line) + ", col " +
                                std::to_string(pos.col))) {
      return nullptr;
    }
    NodePtr no = ternary();
    if (!no) return nullptr;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(cond));
    kids.push_back(std::move(yes));
    kids.push_back(std::move(no));
    return make(NodeKind::Ternary, pos, std::move(kids));
  }

  NodePtr too_deep() {
    return fail(cur().pos, "The expression is nested more than " + std::to_string(kMaxParseDepth) +
                               " levels deep");
  }

  bool at_level(size_t level) const {
    const auto& ops = kLevels[level];
    return std::find(ops.begin(), ops.end(), cur().kind) != ops.end() && !is(Tok::End);
  }

  NodePtr binary(size_t level) {
    if (level == kLevels.size()) return unary();
    NodePtr left = binary(level + 1);
    while (left && at_level(level)) {
      const Token op = cur();
      advance();
      NodePtr right = binary(level + 1);
      if (!right) return nullptr;
      std::vector<NodePtr> kids;
      kids.push_back(std::move(left));
      kids.push_back(std::move(right));
      left = make(NodeKind::Binary, op.pos, std::move(kids));
      if (left) left->op = op.kind;
    }
    return left;
  }

  NodePtr unary() {
    if (!is(Tok::Minus) && !is(Tok::Not)) return primary();
    Nest nest(*this);
    if (nest.too_deep()) return too_deep();
    const Token op = cur();
    advance();
    NodePtr operand = unary();
    if (!operand) return nullptr;
    std::vector<NodePtr> kids;
    kids.push_back(std::move(operand));
    NodePtr n = make(NodeKind::Unary, op.pos, std::move(kids));
    if (n) n->op = op.kind;
    return n;
  }

  NodePtr primary() {
    const Token tok = cur();
    switch (tok.kind) {
      case Tok::Number: {
        advance();
        NodePtr n = make(NodeKind::Number, tok.pos);
        n->number = tok.number;
        return n;
      }
      case Tok::String: {
        advance();
        NodePtr n = make(NodeKind::String, tok.pos);
        n->text = tok.text;
        return n;
      }
      case Tok::LParen: {
        advance();
        NodePtr inner = expr();
        if (!inner || !expect(Tok::RParen, "')'")) return nullptr;
        return inner;
      }
      case Tok::Var:
        return variable();
      case Tok::Ident:
        return ahead().kind == Tok::LParen ? call() : identifier();
      default:
        return unexpected("an expression");
    }
  }

  NodePtr no_members(NodePtr n, const Token& tok) {
    if (n && is(Tok::Dot)) {
      return fail(cur().pos, "Member access on " + describe(tok) +
                                 " is outside the emulator's subset (only GetSample and "
                                 "GetSamplePercent of $PendingTasks, $ActiveTasks, $RunningTasks)");
    }
    return n;
  }

  NodePtr variable() {
    const Token tok = cur();
    const std::string shown = printable(tok.text);
    if (is_unsupported_service(tok.text)) {
      return fail(tok.pos, "The service variable " + shown +
                               " is outside the emulator's subset (supported: " +
                               std::string(kServiceList) + ")");
    }
    const auto service = find_service(tok.text);
    advance();
    if (service && is_sample(*service)) {
      if (!is(Tok::Dot)) {
        return fail(tok.pos, shown + " is a sample set; read it with " + shown +
                                 ".GetSample(...) or " + shown + ".GetSamplePercent(...)");
      }
      return method(tok, *service);
    }
    NodePtr n = make(service ? NodeKind::ServiceVar : NodeKind::UserVar, tok.pos);
    n->text = tok.text;
    if (service) n->service = *service;
    return no_members(std::move(n), tok);
  }

  NodePtr identifier() {
    const Token tok = cur();
    advance();
    if (tok.text.starts_with("TimeInterval_")) {
      const auto seconds = find_interval(tok.text);
      if (!seconds) {
        return fail(tok.pos, "Unknown time interval constant '" + printable(tok.text) + "'");
      }
      NodePtr n = make(NodeKind::Interval, tok.pos);
      n->number = *seconds;
      return no_members(std::move(n), tok);
    }
    if (const auto opt = find_deallocation(tok.text)) {
      NodePtr n = make(NodeKind::String, tok.pos);
      n->text = std::string(*opt);
      return no_members(std::move(n), tok);
    }
    NodePtr n = make(NodeKind::UserVar, tok.pos);
    n->text = tok.text;
    return no_members(std::move(n), tok);
  }

  /// `(arg, …)` after a function or method name; false after a failure.
  bool arguments(std::vector<NodePtr>& args) {
    if (!expect(Tok::LParen, "'('")) return false;
    if (is(Tok::RParen)) {
      advance();
      return true;
    }
    for (;;) {
      NodePtr a = expr();
      if (!a) return false;
      args.push_back(std::move(a));
      if (is(Tok::Comma)) {
        advance();
        continue;
      }
      return expect(Tok::RParen, "',' or ')'");
    }
  }

  NodePtr call() {
    const Token tok = cur();
    const std::string shown = printable(tok.text);
    const auto builtin = find_builtin(tok.text);
    if (!builtin) {
      return fail(tok.pos, (is_unsupported_function(tok.text)
                                ? "The function '" + shown + "' is outside the emulator's subset"
                                : "Unknown function '" + shown + "'") +
                               " (supported: " + std::string(kFunctionList) + ")");
    }
    advance();
    std::vector<NodePtr> args;
    if (!arguments(args)) return nullptr;
    const bool single =
        *builtin == Builtin::Floor || *builtin == Builtin::Ceil || *builtin == Builtin::Round;
    if (single && args.size() != 1) {
      return fail(tok.pos, shown + "() takes exactly one argument");
    }
    if (args.empty()) return fail(tok.pos, shown + "() needs at least one argument");
    NodePtr n = make(NodeKind::Call, tok.pos, std::move(args));
    if (n) {
      n->builtin = *builtin;
      n->text = tok.text;
    }
    return n;
  }

  NodePtr method(const Token& set, Service service) {
    advance();  // the '.'
    if (!is(Tok::Ident)) return unexpected("a method name after '.'");
    const Token name = cur();
    Method m = Method::GetSample;
    size_t max_args = 3;
    if (name.text == "GetSamplePercent") {
      m = Method::GetSamplePercent;
      max_args = 2;
    } else if (name.text != "GetSample") {
      return fail(name.pos, "The method '" + printable(name.text) + "' of " + printable(set.text) +
                                " is outside the emulator's subset (supported: GetSample, "
                                "GetSamplePercent)");
    }
    advance();
    std::vector<NodePtr> args;
    if (!arguments(args)) return nullptr;
    if (args.empty() || args.size() > max_args) {
      return fail(name.pos, name.text + "() takes 1 to " + std::to_string(max_args) +
                                " arguments, not " + std::to_string(args.size()));
    }
    NodePtr n = make(NodeKind::SampleMethod, name.pos, std::move(args));
    if (n) {
      n->method = m;
      n->service = service;
      n->text = set.text;
    }
    return no_members(std::move(n), name);
  }

  std::vector<Token> toks_;
  size_t i_ = 0;
  int depth_ = 0;
  int statement_ = 0;
  std::optional<Failure> failure_;
};

}  // namespace

std::optional<Failure> parse(std::string_view formula, Program& out) {
  return Parser(tokenize(formula)).run(out);
}

}  // namespace trainyard::emu::autoscale_detail
