// ASCII drawing for terminals whose character set is not UTF-8 (LANG=C, old jump hosts, sudo
// shells) and for fonts without braille: each cell's glyph becomes an ASCII stand-in that keeps
// its meaning (borders `+ - |`, bars `#` and `.`, sort arrows `^` `v`, crumbs `>`), and any
// other character a `?` per cell, so that widths and columns stay where they were.
#pragma once

#include <string>
#include <string_view>

namespace trainyard {

/// The ASCII stand-in for one cell's grapheme (UTF-8); `grapheme` itself when it is ASCII.
/// A grapheme without a stand-in is `?`.
std::string ascii_glyph(std::string_view grapheme);

}  // namespace trainyard
