#include "log_printer.hpp"

namespace trainyard {

void LogPrinter::write(std::string_view bytes) {
  std::fwrite(bytes.data(), 1, bytes.size(), out_);
  std::fflush(out_);
}

void LogPrinter::finish() {
  std::fflush(out_);
}

}  // namespace trainyard
