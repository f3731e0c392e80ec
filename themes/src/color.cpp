#include "themes/color.hpp"

#include <charconv>
#include <cstdio>

namespace trainyard {
namespace {

// xterm's default RGB for the 16 basic colours.
constexpr std::array<std::array<std::uint8_t, 3>, 16> kBasic = {{
    {0, 0, 0},
    {205, 0, 0},
    {0, 205, 0},
    {205, 205, 0},
    {0, 0, 238},
    {205, 0, 205},
    {0, 205, 205},
    {229, 229, 229},
    {127, 127, 127},
    {255, 0, 0},
    {0, 255, 0},
    {255, 255, 0},
    {92, 92, 255},
    {255, 0, 255},
    {0, 255, 255},
    {255, 255, 255},
}};

constexpr std::array<std::string_view, 8> kNames = {"black", "red",     "green", "yellow",
                                                    "blue",  "magenta", "cyan",  "white"};

constexpr std::array<std::uint8_t, 6> kCubeLevels = {0, 95, 135, 175, 215, 255};

int distance2(std::array<std::uint8_t, 3> a, std::array<std::uint8_t, 3> b) {
  int dr = a[0] - b[0], dg = a[1] - b[1], db = a[2] - b[2];
  return dr * dr + dg * dg + db * db;
}

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::optional<Color> parse_hex(std::string_view text) {
  if (text.size() != 7) return std::nullopt;
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data() + 1, text.data() + 7, value, 16);
  if (ec != std::errc() || end != text.data() + 7) return std::nullopt;
  return Color::rgb(static_cast<std::uint8_t>(value >> 16), static_cast<std::uint8_t>(value >> 8),
                    static_cast<std::uint8_t>(value));
}

std::optional<Color> parse_name(std::string_view text) {
  std::uint8_t offset = 0;
  if (text.starts_with("bright_")) {
    offset = 8;
    text.remove_prefix(7);
  }
  for (std::size_t i = 0; i < kNames.size(); ++i) {
    if (kNames[i] == text) return Color::indexed(static_cast<std::uint8_t>(i + offset));
  }
  return std::nullopt;
}

std::optional<Color> parse_index(std::string_view text) {
  unsigned value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (ec != std::errc() || end != text.data() + text.size() || value > 255) return std::nullopt;
  return Color::indexed(static_cast<std::uint8_t>(value));
}

}  // namespace

ColorDepth detect_color_depth(std::string_view term, std::string_view colorterm,
                              std::string_view no_color) {
  // https://no-color.org: present and not empty disables colour.
  if (!no_color.empty()) return ColorDepth::Mono;
  if (colorterm == "truecolor" || colorterm == "24bit" || ends_with(term, "-direct")) {
    return ColorDepth::TrueColor;
  }
  if (term.empty() || term == "dumb") return ColorDepth::Mono;
  if (term == "linux" || term == "ansi" || term.starts_with("vt") || term.starts_with("cons")) {
    return ColorDepth::Ansi8;
  }
  // architecture.md: 256 colours by default.
  return ColorDepth::Ansi256;
}

std::array<std::uint8_t, 3> palette_rgb(std::uint8_t index) {
  if (index < 16) return kBasic[index];
  if (index >= 232) {
    auto v = static_cast<std::uint8_t>(8 + 10 * (index - 232));
    return {v, v, v};
  }
  int i = index - 16;
  return {kCubeLevels[i / 36], kCubeLevels[(i / 6) % 6], kCubeLevels[i % 6]};
}

std::uint8_t nearest_256(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  std::uint8_t best = 16;
  int best_d = distance2(palette_rgb(16), {r, g, b});
  for (int i = 17; i < 256; ++i) {
    int d = distance2(palette_rgb(static_cast<std::uint8_t>(i)), {r, g, b});
    if (d < best_d) {
      best_d = d;
      best = static_cast<std::uint8_t>(i);
    }
  }
  return best;
}

std::uint8_t nearest_8(std::uint8_t r, std::uint8_t g, std::uint8_t b) {
  std::uint8_t best = 0;
  int best_d = distance2(kBasic[0], {r, g, b});
  for (std::uint8_t i = 1; i < 8; ++i) {
    int d = distance2(kBasic[i], {r, g, b});
    if (d < best_d) {
      best_d = d;
      best = i;
    }
  }
  return best;
}

Color downgrade(Color c, ColorDepth depth) {
  if (c.is_default() || depth == ColorDepth::TrueColor) return c;
  if (depth == ColorDepth::Mono) return Color::terminal_default();
  if (c.kind == Color::Kind::Rgb) {
    if (depth == ColorDepth::Ansi256) return Color::indexed(nearest_256(c.r, c.g, c.b));
    return Color::indexed(nearest_8(c.r, c.g, c.b));
  }
  if (depth == ColorDepth::Ansi256 || c.index < 8) return c;
  // Bright colours fold onto their basic colour; the cube and greys go by nearest RGB.
  if (c.index < 16) return Color::indexed(static_cast<std::uint8_t>(c.index - 8));
  auto rgb = palette_rgb(c.index);
  return Color::indexed(nearest_8(rgb[0], rgb[1], rgb[2]));
}

std::optional<Color> parse_color(std::string_view text) {
  if (text == "default") return Color::terminal_default();
  if (text.starts_with('#')) return parse_hex(text);
  if (!text.empty() && text[0] >= '0' && text[0] <= '9') return parse_index(text);
  return parse_name(text);
}

std::string format_color(Color c) {
  if (c.kind == Color::Kind::Default) return "default";
  if (c.kind == Color::Kind::Index) {
    if (c.index < 8) return std::string(kNames[c.index]);
    if (c.index < 16) return "bright_" + std::string(kNames[c.index - 8]);
    return std::to_string(c.index);
  }
  char buf[8];
  std::snprintf(buf, sizeof buf, "#%02x%02x%02x", c.r, c.g, c.b);
  return buf;
}

std::string_view color_depth_name(ColorDepth depth) {
  switch (depth) {
    case ColorDepth::Mono:
      return "mono";
    case ColorDepth::Ansi8:
      return "8";
    case ColorDepth::Ansi256:
      return "256";
    case ColorDepth::TrueColor:
      return "truecolor";
  }
  return "?";
}

}  // namespace trainyard
