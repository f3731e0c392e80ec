// Internal: writes log bytes to a stream, raw or through the sanitizer.
#pragma once

#include <cstdio>
#include <string_view>

#include "core/sanitizer.hpp"

namespace trainyard {

/// Streams log bytes out; in sanitized mode only inert text reaches the terminal, a line at a
/// time, and `\r`-rewritten progress bars show their last state.
class LogPrinter {
 public:
  LogPrinter(std::FILE* out, bool raw) : out_(out), raw_(raw) {}
  /// Writes the next chunk (any split of the bytes gives the same output).
  void write(std::string_view bytes);
  /// Writes a last unterminated line.
  void finish();
  /// Ends one file of a stream of several (a retried task's attempts): its unterminated last
  /// line is written as a line, and the next file starts clean.
  void end_file();

 private:
  void emit_lines();

  std::FILE* out_;
  bool raw_;
  Sanitizer sanitizer_;
};

}  // namespace trainyard
