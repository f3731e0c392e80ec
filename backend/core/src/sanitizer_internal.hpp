// Internals of the sanitizer shared by its source files: the terminal-like line buffer and SGR.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <utility>
#include <vector>

#include "core/sanitizer.hpp"

namespace trainyard::detail {

/// An inclusive range of code points, for the tables of widths and hidden characters.
struct CodeRange {
  char32_t lo, hi;
};

/// One character of the line being built, with its style.
struct Cell {
  char bytes[4] = {};
  uint8_t len = 0;
  uint8_t width = 0;
  bool placeholder = false;
  TextStyle style;
};

/// The current line as a row of cells with a cursor, like one row of a terminal.
class LineBuffer {
 public:
  explicit LineBuffer(const SanitizerOptions& options) : options_(options) {}

  /// Writes a code point at the cursor (overwriting) in the current style.
  void put(char32_t cp, bool placeholder);
  /// Writes each character of ASCII/UTF-8 text as a placeholder.
  void put_placeholder(std::string_view utf8);
  /// `\r`: back to column 0.
  void carriage_return() { cursor_ = 0, col_ = 0, dirty_ = true; }
  /// `\b`: one character left.
  void backspace();
  /// `\t`: to the next tab stop, keeping what is under the cursor.
  void tab();
  /// EL (`CSI n K`): 0 erases to the end, 1 to the cursor, 2 the whole line.
  void erase_in_line(int mode);
  /// Marks the line as started (something was consumed) without writing.
  void touch() { dirty_ = true; }
  /// `\n`: the line is complete.
  void end_line();

  /// The line so far, or nothing when no byte arrived since the last end.
  std::optional<SanitizedLine> pending() const;
  /// Completed lines, moved out.
  std::vector<SanitizedLine> take() { return std::exchange(done_, {}); }
  /// Whether the line so far holds anything.
  bool dirty() const { return dirty_; }

  TextStyle style;  ///< style for the next put

 private:
  void put_cell(const Cell& cell);
  void split_line();
  SanitizedLine render(bool split) const;

  const SanitizerOptions& options_;
  std::vector<Cell> cells_;
  std::vector<SanitizedLine> done_;
  size_t cursor_ = 0;
  size_t col_ = 0;
  bool dirty_ = false;
};

/// Format characters that reorder or hide text (Trojan Source class, tag letters, fillers) or
/// break lines: shown as `<U+XXXX>`.
bool is_hidden_format(char32_t cp);

/// Applies the parameters of an SGR sequence (`1;38;5;208`, `38:2::1:2:3`) to a style.
void apply_sgr(std::string_view params, TextStyle& style);

/// Writes the UTF-8 encoding of cp (a valid scalar value) to out[0..4); returns its length.
size_t encode_utf8(char32_t cp, char* out);
/// Appends the UTF-8 encoding of cp.
void append_utf8(std::string& out, char32_t cp);

}  // namespace trainyard::detail
