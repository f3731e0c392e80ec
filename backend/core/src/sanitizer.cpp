// The sanitizer's byte state machine: UTF-8 decoding and ECMA-48 escape sequence parsing.
#include "core/sanitizer.hpp"

#include <fmt/format.h>

#include "sanitizer_internal.hpp"

namespace trainyard {
namespace {

// Bytes of a sequence kept for its placeholder; the rest is counted, not stored.
constexpr size_t kShownSequenceBytes = 32;
constexpr char32_t kReplacement = 0xFFFD;
constexpr unsigned char kEsc = 0x1B;

enum class State { Ground, Esc, EscIntermediate, Csi, String, StringEsc };

bool is_string_intro(unsigned char b) {
  return b == ']' || b == 'P' || b == '_' || b == '^' || b == 'X';
}

// Incremental UTF-8 decoder that reports maximal invalid subparts (Unicode §3.9, U+FFFD policy).
struct Utf8Decoder {
  char32_t cp = 0;
  int need = 0;
  unsigned char lo = 0x80, hi = 0xBF;

  bool active() const { return need > 0; }
  // Starts a sequence at lead byte b; false when b cannot start one.
  bool start(unsigned char b) {
    lo = 0x80, hi = 0xBF;
    if (b >= 0xC2 && b <= 0xDF)
      need = 1, cp = b & 0x1F;
    else if (b >= 0xE0 && b <= 0xEF)
      need = 2, cp = b & 0x0F;
    else if (b >= 0xF0 && b <= 0xF4)
      need = 3, cp = b & 0x07;
    else
      return false;
    if (b == 0xE0) lo = 0xA0;  // overlong
    if (b == 0xED) hi = 0x9F;  // surrogates
    if (b == 0xF0) lo = 0x90;  // overlong
    if (b == 0xF4) hi = 0x8F;  // beyond U+10FFFF
    return true;
  }
  // Adds a continuation byte; false when b does not fit (the sequence is invalid).
  bool add(unsigned char b) {
    if (b < lo || b > hi) return false;
    cp = (cp << 6) | (b & 0x3F);
    lo = 0x80, hi = 0xBF;
    --need;
    return true;
  }
};

}  // namespace

struct Sanitizer::Impl {
  explicit Impl(SanitizerOptions o) : options(o), line(options) {}

  SanitizerOptions options;
  detail::LineBuffer line;
  State state = State::Ground;
  Utf8Decoder utf8;
  std::string seq;           // the sequence so far, as shown in its placeholder
  size_t seq_len = 0;        // bytes of the sequence or string payload
  int string_utf8_left = 0;  // continuation bytes expected inside a string (for raw 0x9C)
  bool string_prev_c2 = false;
  bool pending_cr = false;  // a `\r` waiting to see whether `\n` follows (literal mode)

  void byte(unsigned char b);
  void ground(unsigned char b);
  void ascii(unsigned char b);
  void codepoint(char32_t cp);
  void esc(unsigned char b);
  void esc_intermediate(unsigned char b);
  void csi(unsigned char b);
  void string(unsigned char b);
  void string_esc(unsigned char b);

  void begin(State s, std::string_view shown);
  void keep(unsigned char b);
  void emit_sequence();
  void dispatch_csi(unsigned char final_byte);
  void finish();
};

void Sanitizer::Impl::byte(unsigned char b) {
  if (pending_cr) {
    pending_cr = false;
    if (b != '\n') line.put_placeholder("^M");
  }
  switch (state) {
    case State::Ground:
      return ground(b);
    case State::Esc:
      return esc(b);
    case State::EscIntermediate:
      return esc_intermediate(b);
    case State::Csi:
      return csi(b);
    case State::String:
      return string(b);
    case State::StringEsc:
      return string_esc(b);
  }
}

void Sanitizer::Impl::ground(unsigned char b) {
  if (utf8.active()) {
    if (utf8.add(b)) {
      if (!utf8.active()) codepoint(utf8.cp);
      return;
    }
    utf8.need = 0;
    line.put(kReplacement, true);
  }
  if (b < 0x80) return ascii(b);
  if (!utf8.start(b)) line.put(kReplacement, true);
}

void Sanitizer::Impl::ascii(unsigned char b) {
  const bool motion = options.terminal_motion;
  if (b >= 0x20 && b < 0x7F) return line.put(b, false);
  switch (b) {
    case '\n':
      return line.end_line();
    case '\t':
      return line.tab();
    case '\r':
      return motion ? line.carriage_return() : void(pending_cr = true);
    case '\b':
      return motion ? line.backspace() : line.put_placeholder("^H");
    case kEsc:
      return begin(State::Esc, "^[");
    default:
      break;
  }
  char caret[3] = {'^', static_cast<char>(b == 0x7F ? '?' : b + 0x40), 0};
  line.put_placeholder(caret);
}

void Sanitizer::Impl::codepoint(char32_t cp) {
  if ((cp >= 0x80 && cp <= 0x9F) || detail::is_hidden_format(cp)) {
    line.put_placeholder(fmt::format("<U+{:04X}>", static_cast<uint32_t>(cp)));
  } else {
    line.put(cp, false);
  }
}

void Sanitizer::Impl::begin(State s, std::string_view shown) {
  state = s;
  seq.assign(shown);
  seq_len = 0;
  line.touch();
}

void Sanitizer::Impl::keep(unsigned char b) {
  // Only printable ASCII is shown; the placeholder must itself be inert.
  if (seq_len++ < kShownSequenceBytes) seq += (b >= 0x20 && b < 0x7F) ? static_cast<char>(b) : '.';
}

void Sanitizer::Impl::emit_sequence() {
  if (seq_len > kShownSequenceBytes) seq += "\u2026";
  line.put_placeholder(seq);
  state = State::Ground;
}

void Sanitizer::Impl::esc(unsigned char b) {
  if (b == '[') {
    state = State::Csi;
    keep(b);
  } else if (is_string_intro(b)) {
    keep(b);
    seq_len = 0;  // the payload limit counts from here
    string_utf8_left = 0;
    string_prev_c2 = false;
    state = State::String;
  } else if (b >= 0x20 && b <= 0x2F) {
    keep(b);
    state = State::EscIntermediate;
  } else if (b >= 0x30 && b <= 0x7E) {
    keep(b);
    emit_sequence();
  } else {
    emit_sequence();  // lone ESC
    ground(b);
  }
}

void Sanitizer::Impl::esc_intermediate(unsigned char b) {
  if (b >= 0x20 && b <= 0x7E) {
    keep(b);
    if (b >= 0x30) emit_sequence();
    return;
  }
  emit_sequence();
  ground(b);
}

void Sanitizer::Impl::csi(unsigned char b) {
  if (b >= 0x20 && b <= 0x3F) return keep(b);
  if (b >= 0x40 && b <= 0x7E) return dispatch_csi(b);
  emit_sequence();  // interrupted by a control or non-ASCII byte: show what came, go on
  ground(b);
}

void Sanitizer::Impl::dispatch_csi(unsigned char final_byte) {
  // seq is "^[[" + params; only plain numeric parameters may be interpreted.
  std::string_view params = std::string_view(seq).substr(3);
  bool plain = seq_len <= kShownSequenceBytes &&
               params.find_first_not_of("0123456789;:") == std::string_view::npos;
  if (plain && final_byte == 'm') {
    if (options.keep_sgr) detail::apply_sgr(params, line.style);
    state = State::Ground;
  } else if (plain && final_byte == 'K' && options.terminal_motion &&
             (params.empty() || params == "0" || params == "1" || params == "2")) {
    line.erase_in_line(params.empty() ? 0 : params[0] - '0');
    state = State::Ground;
  } else {
    keep(final_byte);
    emit_sequence();
  }
}

void Sanitizer::Impl::string(unsigned char b) {
  bool at_boundary = string_utf8_left == 0;
  bool c1_st = (b == 0x9C && at_boundary) || (b == 0x9C && string_prev_c2);
  if (b == 0x07 || c1_st) return emit_sequence();
  if (b == kEsc) return void(state = State::StringEsc);
  // A log viewer must not let an unterminated string swallow later lines.
  if (b == '\n' || seq_len >= options.max_string_bytes) {
    emit_sequence();
    return ground(b);
  }
  string_prev_c2 = b == 0xC2 && at_boundary;
  if (b >= 0xC2 && b <= 0xF4)
    string_utf8_left = b < 0xE0 ? 1 : b < 0xF0 ? 2 : 3;
  else if (b >= 0x80 && b <= 0xBF && string_utf8_left > 0)
    --string_utf8_left;
  else
    string_utf8_left = 0;
  keep(b);
}

void Sanitizer::Impl::string_esc(unsigned char b) {
  emit_sequence();
  if (b == '\\') return;
  // ESC followed by anything else aborts the string and starts a new sequence (as xterm does).
  begin(State::Esc, "^[");
  esc(b);
}

void Sanitizer::Impl::finish() {
  if (utf8.active()) {
    utf8.need = 0;
    line.put(kReplacement, true);
  }
  if (state != State::Ground) emit_sequence();
  if (pending_cr) line.put_placeholder("^M");
  pending_cr = false;
  if (line.dirty()) line.end_line();
}

Sanitizer::Sanitizer(SanitizerOptions options) : impl_(std::make_unique<Impl>(options)) {}
Sanitizer::~Sanitizer() = default;
Sanitizer::Sanitizer(Sanitizer&&) noexcept = default;
Sanitizer& Sanitizer::operator=(Sanitizer&&) noexcept = default;

void Sanitizer::feed(std::string_view bytes) {
  for (char c : bytes) impl_->byte(static_cast<unsigned char>(c));
}

std::vector<SanitizedLine> Sanitizer::take_lines() {
  return impl_->line.take();
}

std::optional<SanitizedLine> Sanitizer::pending_line() const {
  return impl_->line.pending();
}

void Sanitizer::finish() {
  impl_->finish();
}

void Sanitizer::reset() {
  impl_ = std::make_unique<Impl>(impl_->options);
}

std::vector<SanitizedLine> sanitize_lines(std::string_view bytes, SanitizerOptions options) {
  Sanitizer s(options);
  s.feed(bytes);
  s.finish();
  return s.take_lines();
}

std::string sanitize_text(std::string_view bytes) {
  if (is_inert_text(bytes)) return std::string(bytes);  // the common case, without the machine
  SanitizerOptions options;
  options.terminal_motion = false;
  options.keep_sgr = false;
  std::string out;
  bool joined = true;  // the previous piece was split at the cap: no line break in between
  for (const SanitizedLine& line : sanitize_lines(bytes, options)) {
    if (!joined) out += " \u23CE ";
    out += line.text;
    joined = line.split;
  }
  return out;
}

}  // namespace trainyard
