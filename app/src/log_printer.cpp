#include "log_printer.hpp"

namespace trainyard {

void LogPrinter::emit_lines() {
  for (const auto& line : sanitizer_.take_lines()) {
    std::fwrite(line.text.data(), 1, line.text.size(), out_);
    // A line cut at the length cap continues on the next one: no newline between them.
    if (!line.split) std::fputc('\n', out_);
  }
  std::fflush(out_);
}

void LogPrinter::write(std::string_view bytes) {
  if (raw_) {
    std::fwrite(bytes.data(), 1, bytes.size(), out_);
    std::fflush(out_);
    return;
  }
  sanitizer_.feed(bytes);
  emit_lines();
}

void LogPrinter::finish() {
  if (!raw_) {
    sanitizer_.finish();
    emit_lines();
  }
  std::fflush(out_);
}

}  // namespace trainyard
