// UTF-8 decoding and terminal cell widths.
//
// Widths are glibc's wcwidth (what ncurses uses) evaluated in the C.UTF-8 locale through a
// thread-local uselocale() guard: the process-wide locale is never touched (no setlocale), so
// results do not depend on the user's LANG. If C.UTF-8 is missing, every printable code point
// is one cell wide.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace trainyard {

/// Horizontal alignment within a width.
enum class Align { Left, Right, Center };

/// Decodes the code point at `pos` and advances `pos`; invalid or truncated bytes give U+FFFD.
char32_t decode_utf8(std::string_view text, std::size_t& pos);
/// Appends the UTF-8 encoding of `cp`.
void append_utf8(std::string& out, char32_t cp);
/// Cells a code point takes: 0 (combining), 1 or 2 (wide CJK, emoji); -1 for controls.
int codepoint_width(char32_t cp);
/// Cells the text takes (controls count as one cell: the canvas draws them as U+FFFD).
int text_width(std::string_view text);
/// The longest prefix that fits `width` cells, ending in `…` when something was cut.
std::string truncate_to_width(std::string_view text, int width);
/// Like truncate_to_width but keeps the end: `…` + the longest suffix that fits.
std::string truncate_left_to_width(std::string_view text, int width);
/// Truncates or pads with spaces to exactly `width` cells.
std::string fit_to_width(std::string_view text, int width, Align align = Align::Left);
/// Word-wraps text into lines of at most `width` cells (long words are split).
std::vector<std::string> wrap_words(std::string_view text, int width);

}  // namespace trainyard
