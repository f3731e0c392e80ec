#include "log_printer.hpp"
#include "output.hpp"

namespace trainyard {

void LogPrinter::emit_lines() {
  for (const auto& line : sanitizer_.take_lines()) {
    // A line cut at the length cap continues on the next one: no newline between them.
    if (line.split)
      out::text(out_, line.text);
    else
      out::line(out_, line.text);
  }
  std::fflush(out_);
}

void LogPrinter::write(std::string_view bytes) {
  if (raw_) return out::raw(out_, bytes);
  sanitizer_.feed(bytes);
  emit_lines();
}

void LogPrinter::end_file() {
  if (raw_) return;  // the exact bytes, file after file
  sanitizer_.finish();
  emit_lines();
  sanitizer_.reset();
}

void LogPrinter::finish() {
  if (!raw_) {
    sanitizer_.finish();
    emit_lines();
  }
  std::fflush(out_);
}

}  // namespace trainyard
