// One-line messages for JSON syntax errors, shared by every file trainyard reads.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>

namespace trainyard {

/// Line and column (both from 1) of the byte before 1-based offset `byte` (nlohmann's
/// parse_error::byte points one past the character that broke the grammar).
std::pair<std::size_t, std::size_t> json_error_position(std::string_view text, std::size_t byte);

/// nlohmann's parse_error::what() less its `[json.exception…] parse error at line L, column C: `
/// prefix, as one inert line: the text it quotes from the file may hold newlines or escapes.
std::string json_syntax_reason(std::string_view what);

/// For nlohmann's out_of_range error of a number too large (`number overflow parsing '1e999'`):
/// the 1-based offset of the first character of the number it quotes (what json_error_position
/// takes), or 0 when `text` does not hold it.
std::size_t json_overflow_byte(std::string_view text, std::string_view what);

/// `source:line:column: reason` for a syntax error in `text`.
std::string json_syntax_message(std::string_view source, std::string_view text, std::size_t byte,
                                std::string_view what);

}  // namespace trainyard
