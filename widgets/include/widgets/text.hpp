// UTF-8 decoding and terminal cell widths of text as the Canvas draws it.
//
// Text from outside reaches the screen only in its sanitized one-line form (sanitize_text: inert
// placeholders for controls, escapes, bidi and invisible characters), so every function here
// measures, cuts and wraps that form. Widths are core's codepoint_width: glibc's wcwidth in
// C.UTF-8 (what ncurses uses), whatever the user's LANG.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/sanitizer.hpp"

namespace trainyard {

/// Horizontal alignment within a width.
enum class Align { Left, Right, Center };

/// Decodes the code point at `pos` and advances `pos`; invalid or truncated bytes give U+FFFD.
char32_t decode_utf8(std::string_view text, std::size_t& pos);
/// Appends the UTF-8 encoding of `cp`.
void append_utf8(std::string& out, char32_t cp);
/// The text as the Canvas draws it: `text` itself when inert (core's is_inert_text), else its
/// sanitize_text form, kept in `storage`.
std::string_view drawable_text(std::string_view text, std::string& storage);
/// Cells the drawable form of the text takes.
int text_width(std::string_view text);
/// The longest prefix (of the drawable form) that fits `width` cells, ending in `…` when something
/// was cut.
std::string truncate_to_width(std::string_view text, int width);
/// Like truncate_to_width but keeps the end: `…` + the longest suffix that fits.
std::string truncate_left_to_width(std::string_view text, int width);
/// Cuts in the middle, keeping the distinguishing end: the last `-`/`_`/`.`/`/`/`:`-separated
/// part when it takes at most half the width (`experiment-res…-0002`), else the last half.
std::string truncate_middle_to_width(std::string_view text, int width);
/// Keeps the last space-separated word whole (a number after its name: `val_l… 0.1720`) and
/// cuts what comes before it; cuts at the end when the word alone does not fit.
std::string truncate_keeping_last_word(std::string_view text, int width);
/// Truncates or pads with spaces to exactly `width` cells.
std::string fit_to_width(std::string_view text, int width, Align align = Align::Left);
/// Word-wraps text (each word of it in its drawable form) into lines of at most `width` cells (long
/// words are split).
std::vector<std::string> wrap_words(std::string_view text, int width);

}  // namespace trainyard
