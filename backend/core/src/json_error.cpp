#include "core/json_error.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "core/sanitizer.hpp"

namespace trainyard {

std::pair<std::size_t, std::size_t> json_error_position(std::string_view text, std::size_t byte) {
  std::size_t end = std::min(byte == 0 ? 0 : byte - 1, text.size());
  std::size_t line = 1, column = 1;
  for (std::size_t i = 0; i < end; ++i) {
    column = text[i] == '\n' ? 1 : column + 1;
    if (text[i] == '\n') ++line;
  }
  return {line, column};
}

std::size_t json_overflow_byte(std::string_view text, std::string_view what) {
  const auto open = what.find('\'');
  const auto close = open == std::string_view::npos ? open : what.find('\'', open + 1);
  if (close == std::string_view::npos || close == open + 1) return 0;
  const auto at = text.find(what.substr(open + 1, close - open - 1));
  return at == std::string_view::npos ? 0 : at + 1;
}

std::string json_syntax_reason(std::string_view what) {
  auto column = what.find("column ");
  auto colon = column == std::string_view::npos ? what.find("] ") : what.find(": ", column);
  if (colon != std::string_view::npos) what.remove_prefix(colon + 2);
  return sanitize_text(what);
}

std::string json_syntax_message(std::string_view source, std::string_view text, std::size_t byte,
                                std::string_view what) {
  auto [line, column] = json_error_position(text, byte);
  return fmt::format("{}:{}:{}: {}", source, line, column, json_syntax_reason(what));
}

}  // namespace trainyard
