// Themes: a style per role, compiled-in defaults and JSON theme files.
#pragma once

#include <array>
#include <filesystem>
#include <string>
#include <string_view>

#include "core/result.hpp"
#include "themes/color.hpp"
#include "themes/role.hpp"

namespace trainyard {

/// How one role is drawn.
struct Style {
  Color fg;                ///< foreground
  Color bg;                ///< background
  bool bold = false;       ///< bold / bright
  bool underline = false;  ///< underlined
  bool reverse = false;    ///< fg and bg swapped
  bool dim = false;        ///< half-bright
  bool operator==(const Style&) const = default;
};

/// A named mapping Role → Style.
class Theme {
 public:
  /// A theme where every role has the plain default style.
  explicit Theme(std::string name = "plain") : name_(std::move(name)) {}

  /// The theme's name (`dark`, `light`, `mono`, or the file's `name`).
  const std::string& name() const { return name_; }
  /// Renames the theme.
  void set_name(std::string name) { name_ = std::move(name); }
  /// The style of a role.
  const Style& style(Role role) const { return styles_[static_cast<std::size_t>(role)]; }
  /// Replaces the style of a role.
  void set(Role role, const Style& style) { styles_[static_cast<std::size_t>(role)] = style; }
  bool operator==(const Theme&) const = default;

 private:
  std::string name_;
  std::array<Style, kRoleCount> styles_{};
};

/// The compiled-in dark theme (256 colours); same content as `themes/files/dark.json`.
Theme default_theme();
/// The compiled-in monochrome theme (attributes only); same content as `mono.json`.
Theme mono_theme();

/// Directory of the shipped theme files (TRAINYARD_THEMES_DIR at build time).
std::filesystem::path themes_dir();
/// Parses theme JSON. `source` names the file in error messages. Roles the file omits keep
/// the default theme's style. Errors are one line: `source:LINE:COL: ...` for syntax errors,
/// `source: /roles/row/fg: ...` (a JSON pointer) for bad content.
Result<Theme> parse_theme(std::string_view json_text, std::string_view source);
/// Reads and parses a theme file.
Result<Theme> load_theme_file(const std::filesystem::path& path);
/// Loads a theme by name (`dark` → `<dir>/dark.json`, else the shipped theme of that name as
/// compiled in) or, when the text has a `/` or ends in `.json`, from that path.
Result<Theme> load_theme(std::string_view name_or_path,
                         const std::filesystem::path& dir = themes_dir());
/// The theme as JSON in the theme file format (every role listed).
std::string theme_to_json(const Theme& theme);

/// The style as the colour depth can show it. In Mono, colours are dropped and a style that
/// had a background becomes reverse video, so selections stay visible.
Style downgrade_style(Style style, ColorDepth depth);
/// Every style of the theme downgraded.
Theme downgrade_theme(const Theme& theme, ColorDepth depth);

}  // namespace trainyard
