#include "widgets/ascii.hpp"

#include <algorithm>
#include <array>
#include <utility>

#include "widgets/canvas.hpp"
#include "widgets/text.hpp"

namespace trainyard {
namespace {

bool is_ascii(std::string_view s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80; });
}

// Box drawing (U+2500–U+257F): lines that run across, lines that run down, and the rest
// (corners, tees, crossings).
char box_glyph(char32_t cp) {
  constexpr std::array<char32_t, 15> across{0x2500, 0x2501, 0x2504, 0x2505, 0x2508,
                                            0x2509, 0x254C, 0x254D, 0x2550, 0x2574,
                                            0x2576, 0x2578, 0x257A, 0x257C, 0x257E};
  constexpr std::array<char32_t, 15> down{0x2502, 0x2503, 0x2506, 0x2507, 0x250A,
                                          0x250B, 0x254E, 0x254F, 0x2551, 0x2575,
                                          0x2577, 0x2579, 0x257B, 0x257D, 0x257F};
  if (std::find(across.begin(), across.end(), cp) != across.end()) return '-';
  if (std::find(down.begin(), down.end(), cp) != down.end()) return '|';
  if (cp == 0x2571) return '/';
  if (cp == 0x2572) return '\\';
  if (cp == 0x2573) return 'X';
  return '+';
}

// Block elements (U+2580–U+259F): the eighths that rise (sparklines) by height, the eighths
// that grow sideways (progress bars) full from a half, and the shades by density.
char block_glyph(char32_t cp) {
  constexpr std::string_view rising = "_.-=+**#";  // ▁ ▂ ▃ ▄ ▅ ▆ ▇ █
  if (cp >= 0x2581 && cp <= 0x2588) return rising[cp - 0x2581];
  if (cp >= 0x2589 && cp <= 0x258C) return '#';  // ▉ ▊ ▋ ▌
  if (cp >= 0x258D && cp <= 0x258F) return '.';  // ▍ ▎ ▏
  if (cp == 0x2591) return '.';                  // ░
  if (cp == 0x2592) return ':';                  // ▒
  return '#';
}

// A braille cell of a chart: where its dots are, as one character (top half `'`, bottom half
// `.`, both `:`).
char braille_glyph(char32_t cp) {
  unsigned dots = static_cast<unsigned>(cp - 0x2800);
  bool top = (dots & 0x1Bu) != 0, bottom = (dots & 0xE4u) != 0;
  if (top && bottom) return ':';
  if (top) return '\'';
  return bottom ? '.' : ' ';
}

constexpr std::pair<char32_t, char> kSymbols[] = {
    {0x25B2, '^'}, {0x25B4, '^'}, {0x2191, '^'}, {0x25BC, 'v'}, {0x25BE, 'v'}, {0x2193, 'v'},
    {0x203A, '>'}, {0x25B6, '>'}, {0x2192, '>'}, {0x2039, '<'}, {0x25C0, '<'}, {0x2190, '<'},
    {0x2194, '-'}, {0x2026, '~'}, {0x00B7, '|'}, {0x2022, '*'}, {0x25CF, '*'}, {0x2605, '*'},
    {0x25CB, 'o'}, {0x00D7, 'x'}, {0x2013, '-'}, {0x2014, '-'}, {0x00B0, 'o'}, {0x03A3, 'S'},
    {0x2713, 'v'}, {0x2714, 'v'}, {0x2717, 'x'}, {0x2718, 'x'}, {0x23CE, '$'}, {0x00A0, ' '},
};

char symbol_glyph(char32_t cp) {
  for (const auto& [from, to] : kSymbols)
    if (from == cp) return to;
  return '?';
}

}  // namespace

std::string ascii_glyph(std::string_view grapheme) {
  if (is_ascii(grapheme)) return std::string(grapheme);
  std::size_t pos = 0;
  char32_t cp = decode_utf8(grapheme, pos);
  char c = '?';
  if (cp < 0x80)  // a letter with combining marks keeps its letter
    c = static_cast<char>(cp);
  else if (cp >= 0x2500 && cp <= 0x257F)
    c = box_glyph(cp);
  else if (cp >= 0x2580 && cp <= 0x259F)
    c = block_glyph(cp);
  else if (cp >= 0x2800 && cp <= 0x28FF)
    c = braille_glyph(cp);
  else
    c = symbol_glyph(cp);
  return std::string(1, c);
}

// A wide character's two cells become two narrow ones, each `?`: the columns after it stay put.
void Canvas::to_ascii() {
  for (auto& c : cells_) c.grapheme = c.continuation() ? "?" : ascii_glyph(c.grapheme);
}

}  // namespace trainyard
