// The `$filter` lexer and recursive-descent parser. It checks every property and operator against
// the list's table and converts literals to the property's type, so evaluation never parses.
#include <cctype>
#include <charconv>
#include <optional>

#include <fmt/format.h>

#include "emulator/odata_filter.hpp"
#include "text.hpp"
#include "wire_time.hpp"

namespace trainyard::emu {
namespace {

// Longer filters are refused before lexing; Batch URLs never come close.
constexpr size_t kMaxFilterBytes = 64 * 1024;
// Parentheses nest at most this deep, which bounds the parser's and evaluator's recursion.
constexpr int kMaxDepth = 64;

enum class Tok : uint8_t { End, Error, LParen, RParen, Comma, Ident, String, Integer, DateTime };

struct Token {
  Tok kind = Tok::End;
  size_t offset = 0;
  std::string_view text;  // String / DateTime: between the quotes, escapes still doubled
};

bool is_ident_start(char c) {
  return std::isalpha(static_cast<unsigned char>(c)) || c == '_';
}

bool is_ident_char(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '/';
}

bool is_digit(char c) {
  return c >= '0' && c <= '9';
}

// Input text quoted for an error message: clipped, and with control or non-ASCII bytes shown as
// '?', since the message goes into a JSON body and a terminal.
std::string excerpt(std::string_view text) {
  constexpr size_t kMax = 40;
  std::string out;
  for (char c : text.substr(0, kMax)) {
    out += (c >= 0x20 && c < 0x7f) ? c : '?';
  }
  if (text.size() > kMax) out += "...";
  return out;
}

// Undoes the '' escaping of a string literal's body.
std::string unescape(std::string_view body) {
  std::string out;
  out.reserve(body.size());
  for (size_t i = 0; i < body.size(); ++i) {
    out += body[i];
    if (body[i] == '\'') ++i;  // the lexer only lets quotes through in pairs
  }
  return out;
}

std::string_view type_phrase(FilterType type) {
  switch (type) {
    case FilterType::Text:
    case FilterType::Name:
      return "a string";
    case FilterType::Time:
      return "a datetime";
    case FilterType::Int:
      return "an integer";
    case FilterType::Bool:
      return "a boolean";
  }
  return "a value";
}

std::optional<FilterOp> comparison_op(std::string_view word) {
  constexpr std::pair<std::string_view, FilterOp> kOps[] = {
      {"eq", FilterOp::Eq}, {"ne", FilterOp::Ne}, {"gt", FilterOp::Gt},
      {"ge", FilterOp::Ge}, {"lt", FilterOp::Lt}, {"le", FilterOp::Le},
  };
  for (const auto& [name, op] : kOps) {
    if (iequals(word, name)) return op;
  }
  return std::nullopt;
}

bool allows(const FilterProperty& prop, FilterOp op) {
  return (prop.ops >> static_cast<unsigned>(op)) & 1u;
}

// Splits the filter into tokens one at a time; an Error token leaves its message in `error`.
class Lexer {
 public:
  explicit Lexer(std::string_view text) : text_(text) {}

  Token next() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
    if (pos_ >= text_.size()) return {Tok::End, pos_, {}};
    char c = text_[pos_];
    if (c == '(') return single(Tok::LParen);
    if (c == ')') return single(Tok::RParen);
    if (c == ',') return single(Tok::Comma);
    if (c == '\'') return quoted(Tok::String, pos_);
    if (is_digit(c) || (c == '-' && pos_ + 1 < text_.size() && is_digit(text_[pos_ + 1])))
      return number();
    if (is_ident_start(c)) return word();
    return fail(pos_, unexpected_char(c));
  }

  const std::string& error() const { return error_; }

 private:
  Token single(Tok kind) {
    size_t at = pos_++;
    return {kind, at, text_.substr(at, 1)};
  }

  Token number() {
    size_t start = pos_++;
    while (pos_ < text_.size() && is_digit(text_[pos_])) ++pos_;
    return {Tok::Integer, start, text_.substr(start, pos_ - start)};
  }

  // An identifier, or `datetime'…'` when the word is directly followed by a quote.
  Token word() {
    size_t start = pos_;
    while (pos_ < text_.size() && is_ident_char(text_[pos_])) ++pos_;
    std::string_view w = text_.substr(start, pos_ - start);
    if (iequals(w, "datetime") && pos_ < text_.size() && text_[pos_] == '\'')
      return quoted(Tok::DateTime, start);
    return {Tok::Ident, start, w};
  }

  // A single-quoted body starting at pos_; '' stands for one quote.
  Token quoted(Tok kind, size_t token_start) {
    size_t open = pos_++;
    for (; pos_ < text_.size(); ++pos_) {
      if (text_[pos_] != '\'') continue;
      if (pos_ + 1 < text_.size() && text_[pos_ + 1] == '\'') {
        ++pos_;
        continue;
      }
      std::string_view body = text_.substr(open + 1, pos_ - open - 1);
      ++pos_;
      return {kind, token_start, body};
    }
    return fail(open, "unterminated string");
  }

  static std::string unexpected_char(char c) {
    if (c >= 0x20 && c < 0x7f) return fmt::format("unexpected character '{}'", c);
    return fmt::format("unexpected byte 0x{:02x}", static_cast<unsigned char>(c));
  }

  Token fail(size_t offset, std::string message) {
    error_ = std::move(message);
    pos_ = text_.size();
    return {Tok::Error, offset, {}};
  }

  std::string_view text_;
  size_t pos_ = 0;
  std::string error_;
};

class Parser {
 public:
  Parser(std::string_view text, ListKind list) : lexer_(text), list_(list) {}

  Result<std::unique_ptr<FilterNode>> run() {
    advance();
    if (tok_.kind == Tok::End) return std::unique_ptr<FilterNode>();
    auto root = std::make_unique<FilterNode>();
    if (!parse_or(*root, 0) || !expect_end()) return *error_;
    return root;
  }

 private:
  void advance() { tok_ = lexer_.next(); }

  bool is_word(std::string_view word) const {
    return tok_.kind == Tok::Ident && iequals(tok_.text, word);
  }

  bool fail(std::string message) {
    error_ = make_error(ErrorKind::Usage, std::move(message));
    return false;
  }

  // A syntax error at the current token; a lexer error takes precedence, being more precise.
  bool syntax(std::string_view expected) {
    if (tok_.kind == Tok::Error)
      return fail(fmt::format("Invalid $filter: {} at offset {}", lexer_.error(), tok_.offset));
    return fail(fmt::format("Invalid $filter: expected {} but found {} at offset {}", expected,
                            describe(tok_), tok_.offset));
  }

  bool expect(Tok kind, std::string_view what) {
    if (tok_.kind != kind) return syntax(what);
    advance();
    return true;
  }

  bool expect_end() {
    return tok_.kind == Tok::End || syntax("'and', 'or' or the end of the filter");
  }

  static std::string describe(const Token& t) {
    switch (t.kind) {
      case Tok::End:
        return "the end of the filter";
      case Tok::String:
        return fmt::format("the string '{}'", excerpt(t.text));
      case Tok::DateTime:
        return fmt::format("datetime'{}'", excerpt(t.text));
      default:
        return fmt::format("'{}'", excerpt(t.text));
    }
  }

  using Step = bool (Parser::*)(FilterNode&, int);

  // One precedence level: `next (word next)*`, as one n-ary node so long chains stay shallow; a
  // single operand is returned as is.
  bool parse_chain(FilterNode& out, int depth, std::string_view word, FilterNode::Kind kind,
                   Step next) {
    FilterNode first;
    if (!(this->*next)(first, depth)) return false;
    if (!is_word(word)) {
      out = std::move(first);
      return true;
    }
    out.kind = kind;
    out.children.push_back(std::move(first));
    while (is_word(word)) {
      advance();
      if (!(this->*next)(out.children.emplace_back(), depth)) return false;
    }
    return true;
  }

  // or_expr := and_expr ('or' and_expr)*
  bool parse_or(FilterNode& out, int depth) {
    return parse_chain(out, depth, "or", FilterNode::Kind::Or, &Parser::parse_and);
  }

  // and_expr := primary ('and' primary)*; so `and` binds tighter than `or`.
  bool parse_and(FilterNode& out, int depth) {
    return parse_chain(out, depth, "and", FilterNode::Kind::And, &Parser::parse_primary);
  }

  // primary := '(' or_expr ')' | startswith(...) [eq|ne bool] | property op literal
  bool parse_primary(FilterNode& out, int depth) {
    if (tok_.kind == Tok::LParen) return parse_group(out, depth);
    if (tok_.kind != Tok::Ident) return syntax("a property, 'startswith' or '('");
    if (is_word("not"))
      return fail(fmt::format("Invalid $filter: 'not' is not supported (offset {})", tok_.offset));
    Token name = tok_;
    advance();
    if (iequals(name.text, "startswith") && tok_.kind == Tok::LParen) return parse_startswith(out);
    return parse_comparison(name, out);
  }

  bool parse_group(FilterNode& out, int depth) {
    if (depth >= kMaxDepth)
      return fail(
          fmt::format("Invalid $filter: parentheses nest deeper than {} levels at offset {}",
                      kMaxDepth, tok_.offset));
    advance();
    if (!parse_or(out, depth + 1)) return false;
    return expect(Tok::RParen, "')'");
  }

  // Sets out.prop to the row for `name` in the list's table; an unknown property is an error.
  bool resolve(const Token& name, FilterNode& out) {
    out.prop = find_filter_property(list_, name.text);
    if (out.prop != nullptr) return true;
    return fail(fmt::format("The $filter property '{}' is not supported for listing {}",
                            excerpt(name.text), filter_list_noun(list_)));
  }

  // Sets out.op once the table allows `op` on out.prop.
  bool check_op(const Token& name, FilterOp op, FilterNode& out) {
    out.op = op;
    if (allows(*out.prop, op)) return true;
    return fail(
        fmt::format("The $filter operator '{}' is not supported for property '{}' when listing {}",
                    filter_op_name(op), excerpt(name.text), filter_list_noun(list_)));
  }

  // property op literal; the property is checked first so an unknown one is named as such.
  bool parse_comparison(const Token& name, FilterNode& out) {
    if (!resolve(name, out)) return false;
    std::optional<FilterOp> op;
    if (tok_.kind == Tok::Ident) op = comparison_op(tok_.text);
    if (!op) return syntax("a comparison operator (eq, ne, gt, ge, lt, le)");
    if (!check_op(name, *op, out)) return false;
    advance();
    return parse_literal(name, out);
  }

  // startswith '(' property ',' string ')' [('eq' | 'ne') ('true' | 'false')]
  bool parse_startswith(FilterNode& out) {
    advance();  // '('
    if (tok_.kind != Tok::Ident) return syntax("a property");
    Token name = tok_;
    if (!resolve(name, out) || !check_op(name, FilterOp::StartsWith, out)) return false;
    advance();
    if (!expect(Tok::Comma, "','")) return false;
    if (!parse_literal(name, out)) return false;
    if (!expect(Tok::RParen, "')'")) return false;
    return parse_bool_suffix(out);
  }

  // The older `startswith(…) eq true` form; `eq false` / `ne true` negate.
  bool parse_bool_suffix(FilterNode& out) {
    bool is_eq = is_word("eq");
    if (!is_eq && !is_word("ne")) return true;
    advance();
    bool value = is_word("true");
    if (!value && !is_word("false")) return syntax("true or false");
    advance();
    out.negate = is_eq != value;
    return true;
  }

  bool type_error(const Token& name, const FilterProperty& prop, std::string_view got) {
    return fail(fmt::format("The $filter property '{}' takes {}, not {} (offset {})",
                            excerpt(name.text), type_phrase(prop.type), got, tok_.offset));
  }

  // Reads the literal at the current token, converted to the property's type.
  bool parse_literal(const Token& name, FilterNode& out) {
    const FilterProperty& prop = *out.prop;
    switch (tok_.kind) {
      case Tok::String:
        return string_literal(name, out);
      case Tok::DateTime:
        if (prop.type != FilterType::Time) return type_error(name, prop, "a datetime");
        return time_literal(out);
      case Tok::Integer:
        if (prop.type != FilterType::Int) return type_error(name, prop, "an integer");
        return int_literal(out);
      case Tok::Ident:
        if (is_word("true") || is_word("false")) return bool_literal(name, out);
        [[fallthrough]];
      default:
        return syntax("a value");
    }
  }

  bool string_literal(const Token& name, FilterNode& out) {
    const FilterProperty& prop = *out.prop;
    if (prop.type == FilterType::Time) return time_literal(out);
    if (prop.type == FilterType::Int || prop.type == FilterType::Bool)
      return type_error(name, prop, "a string");
    std::string value = unescape(tok_.text);
    // Case-insensitive properties compare against a lowercased literal, folded once here.
    out.literal =
        prop.type == FilterType::Name ? ascii_lowercase(std::move(value)) : std::move(value);
    advance();
    return true;
  }

  bool time_literal(FilterNode& out) {
    std::string text = unescape(tok_.text);
    auto t = read_wire_time(text);
    if (!t)
      return fail(fmt::format("Invalid $filter: '{}' is not an ISO 8601 UTC datetime (offset {})",
                              excerpt(text), tok_.offset));
    out.literal = from_micros(*t);
    advance();
    return true;
  }

  bool int_literal(FilterNode& out) {
    int64_t value = 0;
    const char* end = tok_.text.data() + tok_.text.size();
    auto [ptr, ec] = std::from_chars(tok_.text.data(), end, value);
    if (ec != std::errc() || ptr != end)
      return fail(fmt::format("Invalid $filter: integer {} is out of range at offset {}",
                              excerpt(tok_.text), tok_.offset));
    out.literal = value;
    advance();
    return true;
  }

  bool bool_literal(const Token& name, FilterNode& out) {
    if (out.prop->type != FilterType::Bool) return type_error(name, *out.prop, "a boolean");
    out.literal = is_word("true");
    advance();
    return true;
  }

  Lexer lexer_;
  ListKind list_;
  Token tok_;
  std::optional<Error> error_;
};

}  // namespace

Result<std::unique_ptr<FilterNode>> parse_filter_tree(std::string_view text, ListKind list) {
  if (text.size() > kMaxFilterBytes)
    return make_error(ErrorKind::Usage, fmt::format("Invalid $filter: longer than {} bytes ({})",
                                                    kMaxFilterBytes, text.size()));
  return Parser(text, list).run();
}

}  // namespace trainyard::emu
