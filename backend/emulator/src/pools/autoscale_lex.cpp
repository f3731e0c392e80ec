// Tokenizer of autoscale formulas: names, numbers, strings, operators, `//` and `/* */` comments.
#include <charconv>
#include <cstdio>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "autoscale_internal.hpp"

namespace trainyard::emu::autoscale_detail {

namespace {

bool is_name_start(char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_';
}
bool is_digit(char c) {
  return c >= '0' && c <= '9';
}
bool is_name_char(char c) {
  return is_name_start(c) || is_digit(c);
}
bool is_space(char c) {
  return c == ' ' || c == '\t' || c == '\r' || c == '\n' || c == '\f' || c == '\v';
}

std::string hex_byte(unsigned char c) {
  char buf[8];
  std::snprintf(buf, sizeof buf, "\\x%02X", static_cast<unsigned>(c));
  return buf;
}

/// One pass over the formula, keeping the line and column of the next character.
class Lexer {
 public:
  explicit Lexer(std::string_view src) : src_(src) {}

  std::vector<Token> run() {
    std::vector<Token> out;
    for (;;) {
      bool newline = false;
      Token tok;
      if (!skip_blanks(newline, tok)) {
        tok = next();
      }
      tok.newline_before = newline;
      const Tok kind = tok.kind;
      out.push_back(std::move(tok));
      if (kind == Tok::End) break;
      if (kind == Tok::Invalid) {
        Token end;
        end.pos = pos_;
        out.push_back(std::move(end));
        break;
      }
    }
    return out;
  }

 private:
  bool at_end(size_t ahead = 0) const { return i_ + ahead >= src_.size(); }
  char peek(size_t ahead = 0) const { return at_end(ahead) ? '\0' : src_[i_ + ahead]; }

  void advance() {
    const char c = src_[i_++];
    if (c == '\n') {
      ++pos_.line;
      pos_.col = 1;
    } else if ((static_cast<unsigned char>(c) & 0xC0) != 0x80) {
      ++pos_.col;  // UTF-8 continuation bytes belong to the character before
    }
  }

  static Token invalid(Pos pos, std::string why) {
    Token t;
    t.kind = Tok::Invalid;
    t.pos = pos;
    t.text = std::move(why);
    return t;
  }

  /// Skips white space and comments; false when a token (maybe End) follows, true when `bad`
  /// was filled with an unterminated comment.
  bool skip_blanks(bool& newline, Token& bad) {
    while (!at_end()) {
      const char c = peek();
      if (is_space(c)) {
        newline |= c == '\n';
        advance();
      } else if (c == '/' && peek(1) == '/') {
        while (!at_end() && peek() != '\n') advance();
      } else if (c == '/' && peek(1) == '*') {
        const Pos start = pos_;
        advance();
        advance();
        while (!at_end() && !(peek() == '*' && peek(1) == '/')) {
          newline |= peek() == '\n';
          advance();
        }
        if (at_end()) {
          bad = invalid(start, "Unterminated /* comment");
          return true;
        }
        advance();
        advance();
      } else {
        break;
      }
    }
    return false;
  }

  Token next() {
    Token t;
    t.pos = pos_;
    if (at_end()) return t;
    const char c = peek();
    if (is_digit(c) || (c == '.' && is_digit(peek(1)))) return number();
    if (is_name_start(c)) return name(Tok::Ident, 0);
    if (c == '$') {
      if (!is_name_start(peek(1))) return invalid(pos_, "Expected a variable name after '$'");
      return name(Tok::Var, 1);
    }
    if (c == '"') return string();
    return op();
  }

  Token name(Tok kind, size_t prefix) {
    Token t;
    t.kind = kind;
    t.pos = pos_;
    const size_t start = i_;
    for (size_t k = 0; k < prefix; ++k) advance();
    while (!at_end() && is_name_char(peek())) advance();
    t.text = std::string(src_.substr(start, i_ - start));
    return t;
  }

  Token number() {
    Token t;
    t.kind = Tok::Number;
    t.pos = pos_;
    const size_t start = i_;
    while (!at_end() && is_digit(peek())) advance();
    if (peek() == '.') {
      advance();
      while (!at_end() && is_digit(peek())) advance();
    }
    const char e = peek();
    if ((e == 'e' || e == 'E') &&
        (is_digit(peek(1)) || ((peek(1) == '+' || peek(1) == '-') && is_digit(peek(2))))) {
      advance();
      if (peek() == '+' || peek() == '-') advance();
      while (!at_end() && is_digit(peek())) advance();
    }
    const std::string text = "0" + std::string(src_.substr(start, i_ - start));
    const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), t.number);
    if (ec != std::errc() || end != text.data() + text.size()) {
      return invalid(t.pos, "Number '" + text.substr(1) + "' is out of range");
    }
    return t;
  }

  Token string() {
    Token t;
    t.kind = Tok::String;
    t.pos = pos_;
    advance();
    const size_t start = i_;
    while (!at_end() && peek() != '"' && peek() != '\n') advance();
    if (peek() != '"') return invalid(t.pos, "Unterminated string");
    t.text = std::string(src_.substr(start, i_ - start));
    advance();
    return t;
  }

  /// Consumes `width` characters as an operator of `kind`.
  Token take(Tok kind, int width) {
    Token t;
    t.kind = kind;
    t.pos = pos_;
    for (int k = 0; k < width; ++k) advance();
    return t;
  }

  Token op() {
    const char c = peek();
    const char d = peek(1);
    switch (c) {
      case '(':
        return take(Tok::LParen, 1);
      case ')':
        return take(Tok::RParen, 1);
      case ',':
        return take(Tok::Comma, 1);
      case ';':
        return take(Tok::Semi, 1);
      case '.':
        return take(Tok::Dot, 1);
      case '+':
        return take(Tok::Plus, 1);
      case '-':
        return take(Tok::Minus, 1);
      case '*':
        return take(Tok::Star, 1);
      case '/':
        return take(Tok::Slash, 1);
      case '?':
        return take(Tok::Question, 1);
      case ':':
        return take(Tok::Colon, 1);
      case '=':
        return d == '=' ? take(Tok::Eq, 2) : take(Tok::Assign, 1);
      case '!':
        return d == '=' ? take(Tok::Ne, 2) : take(Tok::Not, 1);
      case '<':
        return d == '=' ? take(Tok::Le, 2) : take(Tok::Lt, 1);
      case '>':
        return d == '=' ? take(Tok::Ge, 2) : take(Tok::Gt, 1);
      case '&':
        if (d == '&') return take(Tok::And, 2);
        return invalid(pos_, "Unexpected character '&' (did you mean '&&'?)");
      case '|':
        if (d == '|') return take(Tok::Or, 2);
        return invalid(pos_, "Unexpected character '|' (did you mean '||'?)");
      default:
        break;
    }
    const auto u = static_cast<unsigned char>(c);
    if (u >= 0x20 && u < 0x7F) {
      return invalid(pos_, std::string("Unexpected character '") + c + "'");
    }
    return invalid(pos_, "Unexpected character " + hex_byte(u));
  }

  std::string_view src_;
  size_t i_ = 0;
  Pos pos_;
};

}  // namespace

std::string_view op_text(Tok k) {
  switch (k) {
    case Tok::LParen:
      return "(";
    case Tok::RParen:
      return ")";
    case Tok::Comma:
      return ",";
    case Tok::Semi:
      return ";";
    case Tok::Dot:
      return ".";
    case Tok::Assign:
      return "=";
    case Tok::Plus:
      return "+";
    case Tok::Minus:
      return "-";
    case Tok::Star:
      return "*";
    case Tok::Slash:
      return "/";
    case Tok::Not:
      return "!";
    case Tok::Lt:
      return "<";
    case Tok::Le:
      return "<=";
    case Tok::Gt:
      return ">";
    case Tok::Ge:
      return ">=";
    case Tok::Eq:
      return "==";
    case Tok::Ne:
      return "!=";
    case Tok::And:
      return "&&";
    case Tok::Or:
      return "||";
    case Tok::Question:
      return "?";
    case Tok::Colon:
      return ":";
    default:
      return "?";
  }
}

std::vector<Token> tokenize(std::string_view formula) {
  return Lexer(formula).run();
}

std::string printable(std::string_view text) {
  constexpr size_t kMax = 64;
  std::string out;
  for (size_t i = 0; i < text.size() && i < kMax; ++i) {
    const auto u = static_cast<unsigned char>(text[i]);
    if (u >= 0x20 && u < 0x7F) {
      out += text[i];
    } else {
      out += hex_byte(u);
    }
  }
  if (text.size() > kMax) out += "...";
  return out;
}

std::string describe(const Token& tok) {
  switch (tok.kind) {
    case Tok::End:
      return "end of formula";
    case Tok::Invalid:
      return tok.text;
    case Tok::Number:
      return "number " + format_number(tok.number);
    case Tok::String:
      return "string \"" + printable(tok.text) + "\"";
    case Tok::Ident:
    case Tok::Var:
      return "'" + printable(tok.text) + "'";
    default:
      return "'" + std::string(op_text(tok.kind)) + "'";
  }
}

}  // namespace trainyard::emu::autoscale_detail
