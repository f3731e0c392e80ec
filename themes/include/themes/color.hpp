// Terminal colours, colour depth detection and downgrade.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace trainyard {

/// A terminal colour: the terminal's default, a palette index (0-255) or 24-bit RGB.
struct Color {
  /// Which representation is held.
  enum class Kind : std::uint8_t { Default, Index, Rgb };
  Kind kind = Kind::Default;
  std::uint8_t index = 0;  ///< palette index when kind == Index
  std::uint8_t r = 0;      ///< red when kind == Rgb
  std::uint8_t g = 0;      ///< green when kind == Rgb
  std::uint8_t b = 0;      ///< blue when kind == Rgb

  /// The terminal's default colour.
  static constexpr Color terminal_default() { return {}; }
  /// Palette colour `i` (0-7 basic, 8-15 bright, 16-231 cube, 232-255 greys).
  static constexpr Color indexed(std::uint8_t i) { return {Kind::Index, i, 0, 0, 0}; }
  /// A 24-bit colour.
  static constexpr Color rgb(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
    return {Kind::Rgb, 0, r, g, b};
  }
  /// True for the terminal default.
  constexpr bool is_default() const { return kind == Kind::Default; }
  bool operator==(const Color&) const = default;
};

/// How many colours the terminal can show.
enum class ColorDepth { Mono, Ansi8, Ansi256, TrueColor };

/// Decides the colour depth from environment values (pass "" for unset ones):
/// NO_COLOR non-empty → Mono; `*-direct` TERM or COLORTERM truecolor/24bit → TrueColor;
/// empty or `dumb` TERM → Mono; `linux`/`ansi`/`vt*` → Ansi8; anything else → Ansi256.
ColorDepth detect_color_depth(std::string_view term, std::string_view colorterm,
                              std::string_view no_color);

/// The colour as the given depth can show it (Mono gives the terminal default).
Color downgrade(Color c, ColorDepth depth);
/// RGB of an xterm palette index.
std::array<std::uint8_t, 3> palette_rgb(std::uint8_t index);
/// Nearest xterm 256-palette index (16-255) to an RGB colour.
std::uint8_t nearest_256(std::uint8_t r, std::uint8_t g, std::uint8_t b);
/// Nearest basic colour (0-7) to an RGB colour.
std::uint8_t nearest_8(std::uint8_t r, std::uint8_t g, std::uint8_t b);

/// Parses `default`, `#rrggbb`, a decimal index `0`-`255`, or a name (`red`, `bright_red`).
std::optional<Color> parse_color(std::string_view text);
/// Canonical text for a colour: `default`, a name for 0-15, the index, or `#rrggbb`.
std::string format_color(Color c);
/// Name of the colour depth (`mono`, `8`, `256`, `truecolor`).
std::string_view color_depth_name(ColorDepth depth);

}  // namespace trainyard
