// Streaming sanitizer for text that comes from outside the process (logs, remote strings).
//
// Nothing that leaves the sanitizer can drive a terminal: the text holds no C0/C1 control, no
// escape sequence, no bidi or zero-width format character and no invalid UTF-8. What was removed
// stays visible as an inert placeholder, so tampering is seen, not hidden. The scheme:
//   - C0 controls and DEL:                caret notation, `^@` .. `^_`, `^?` (as `cat -v`).
//   - Lone ESC:                           `^[`.
//   - ESC / CSI sequences other than SGR: `^[` + the sequence bytes, e.g. `^[[2J`, `^[[?1049h`,
//   `^[7`.
//   - OSC / DCS / APC / PM / SOS strings:  `^[]`, `^[P`, `^[_`, `^[^`, `^[X` + the first 32 payload
//                                         bytes (non-printable ones as `.`) + `…` when cut.
//   - C1 controls U+0080..U+009F, bidi controls, zero-width and other invisible format
//     characters (Unicode's Cf: tag letters, invisible operators, soft hyphen…), Hangul
//     fillers, U+2028/U+2029:
//                                         `<U+XXXX>`, e.g. `<U+202E>`.
//   - Invalid UTF-8 (stray or raw 8-bit bytes, overlongs, surrogates, > U+10FFFF):
//                                         U+FFFD per maximal invalid subpart.
//   - Line split at the length cap:       the piece ends with a `…` placeholder.
// Every placeholder character carries Span::placeholder so the UI can draw it in its own role.
// SGR (`CSI … m`) is not shown: it becomes the style of the following text.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace trainyard {

/// Colour index meaning "the terminal's default colour".
inline constexpr int16_t kDefaultColor = -1;

/// Text attributes set by SGR; colours are xterm-256 indices (truecolor is mapped to the cube).
struct TextStyle {
  int16_t fg = kDefaultColor;  ///< foreground, 0..255 or kDefaultColor
  int16_t bg = kDefaultColor;  ///< background, 0..255 or kDefaultColor
  bool bold = false;
  bool dim = false;
  bool italic = false;
  bool underline = false;
  bool reverse = false;

  bool operator==(const TextStyle&) const = default;
  /// True when nothing differs from the default style.
  bool is_default() const { return *this == TextStyle{}; }
};

/// A run of bytes [begin, end) of SanitizedLine::text with one style.
struct Span {
  size_t begin = 0;
  size_t end = 0;
  TextStyle style;
  bool placeholder = false;  ///< the bytes stand for something removed (draw in a distinct role)

  bool operator==(const Span&) const = default;
};

/// One line of output: printable UTF-8 plus the styled / placeholder runs of it.
struct SanitizedLine {
  std::string text;         ///< printable UTF-8 only, no control characters
  std::vector<Span> spans;  ///< only runs that are styled or placeholders, in order, disjoint
  bool split = false;  ///< the input line went on past the length cap; the next line continues it

  bool operator==(const SanitizedLine&) const = default;
};

/// Knobs of a Sanitizer.
struct SanitizerOptions {
  /// `\r` and `\b` move the cursor as on a terminal (progress bars show their last state). When
  /// false they are placeholders (`^M`, `^H`) and `\r\n` is a newline: for names and messages.
  bool terminal_motion = true;
  /// Keep SGR as styles; when false SGR is dropped silently (still never shown raw).
  bool keep_sgr = true;
  /// Characters per line before it is split (memory stays bounded).
  size_t max_line_chars = 64 * 1024;
  /// Bytes of one escape string (OSC, DCS…) before it is ended by force; strings also end at `\n`.
  size_t max_string_bytes = 4096;
  /// Tab stops every this many columns.
  size_t tab_width = 8;
};

/// Byte-stream to sanitized lines. The output depends only on the bytes, never on how they are
/// split across feed() calls. Not thread-safe; one per stream.
class Sanitizer {
 public:
  explicit Sanitizer(SanitizerOptions options = {});
  ~Sanitizer();
  Sanitizer(Sanitizer&&) noexcept;
  Sanitizer& operator=(Sanitizer&&) noexcept;
  Sanitizer(const Sanitizer&) = delete;
  Sanitizer& operator=(const Sanitizer&) = delete;

  /// Consumes more bytes of the stream.
  void feed(std::string_view bytes);
  /// Completed lines since the last call (each ended by `\n` or split at the cap).
  std::vector<SanitizedLine> take_lines();
  /// The line being built (e.g. a progress bar still moving); nullopt when nothing since the last
  /// `\n`.
  std::optional<SanitizedLine> pending_line() const;
  /// End of stream: flushes unfinished sequences as placeholders and the pending line as a line.
  void finish();
  /// Forgets all state, as if newly built.
  void reset();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

/// Sanitizes a whole input into lines (a trailing partial line is included).
std::vector<SanitizedLine> sanitize_lines(std::string_view bytes, SanitizerOptions options = {});

/// One-line text for entity names and error messages: `\r`, `\b` are placeholders, styles are
/// dropped and line breaks become ` ⏎ `.
std::string sanitize_text(std::string_view bytes);

/// True when `bytes` is valid UTF-8 with nothing the sanitizer would change on one line: no C0
/// control (tab and newline included), DEL, C1 control, escape, bidi control or invisible format
/// character. Then sanitize_text(bytes) == bytes.
bool is_inert_text(std::string_view bytes);

/// Columns a code point takes on a terminal, as glibc's wcwidth in C.UTF-8 says (what ncurses
/// uses): 0 for combining marks, 2 for CJK and emoji; control and unassigned code points count 1.
int codepoint_width(char32_t cp);

/// Columns that UTF-8 text takes (invalid bytes count 1 each, as U+FFFD would).
size_t display_width(std::string_view utf8);

}  // namespace trainyard
