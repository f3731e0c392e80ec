#include "widgets/log_roles.hpp"

#include <algorithm>
#include <array>
#include <optional>

namespace trainyard {
namespace {

struct Rgb {
  int r, g, b;
};

// xterm's palette: the 6x6x6 cube's levels, and the 16 basic colours' hues (none for greys).
constexpr std::array<int, 6> kCubeLevels{0, 95, 135, 175, 215, 255};

std::optional<Role> basic_role(int index) {
  switch (index % 8) {
    case 1:
      return Role::LogError;
    case 2:
      return Role::LogOk;
    case 3:
      return Role::LogWarn;
    case 4:
    case 5:
    case 6:
      return Role::LogInfo;
    default:
      return std::nullopt;  // black, white and their bright forms
  }
}

Rgb cube_rgb(int index) {
  int i = index - 16;
  return {kCubeLevels[static_cast<size_t>(i / 36)], kCubeLevels[static_cast<size_t>(i / 6 % 6)],
          kCubeLevels[static_cast<size_t>(i % 6)]};
}

// Hue in degrees; nullopt for colours too grey to carry one.
std::optional<double> hue(Rgb c) {
  int hi = std::max({c.r, c.g, c.b}), lo = std::min({c.r, c.g, c.b});
  double d = hi - lo;
  if (d <= 40) return std::nullopt;
  double h = hi == c.r ? (c.g - c.b) / d : hi == c.g ? (c.b - c.r) / d + 2 : (c.r - c.g) / d + 4;
  h *= 60;
  return h < 0 ? h + 360 : h;
}

// Hue bands around the roles' own colours: red, orange to yellow, green, cyan to magenta.
Role role_of_hue(double h) {
  if (h < 18 || h >= 315) return Role::LogError;
  if (h < 75) return Role::LogWarn;
  if (h < 165) return Role::LogOk;
  return Role::LogInfo;
}

std::optional<Role> colour_role(int16_t index) {
  if (index < 0) return std::nullopt;
  if (index < 16) return basic_role(index);
  if (index >= 232) return std::nullopt;  // the grey ramp
  auto h = hue(cube_rgb(index));
  return h ? std::optional(role_of_hue(*h)) : std::nullopt;
}

}  // namespace

Role log_role(const TextStyle& style) {
  if (auto r = colour_role(style.fg)) return *r;
  if (auto r = colour_role(style.bg)) return *r;
  if (style.bold) return Role::LogEmphasis;
  if (style.dim) return Role::Dim;
  return Role::LogText;
}

LogLine to_log_line(const SanitizedLine& s) {
  LogLine line;
  size_t pos = 0;
  for (const auto& span : s.spans) {
    if (span.begin > pos)
      line.push_back(LogSpan{s.text.substr(pos, span.begin - pos), Role::LogText});
    Role role = span.placeholder ? Role::LogPlaceholder : log_role(span.style);
    line.push_back(LogSpan{s.text.substr(span.begin, span.end - span.begin), role});
    pos = span.end;
  }
  if (pos < s.text.size()) line.push_back(LogSpan{s.text.substr(pos), Role::LogText});
  return line;
}

}  // namespace trainyard
