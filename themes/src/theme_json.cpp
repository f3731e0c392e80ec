// Theme files: parsing with one-line errors that name the file and the place, and writing.
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "core/json_error.hpp"
#include "themes/theme.hpp"

#include "shipped_themes.hpp"

#ifndef TRAINYARD_THEMES_DIR
#define TRAINYARD_THEMES_DIR "themes/files"
#endif

namespace trainyard {
namespace {

using nlohmann::json;

Error content_error(std::string_view source, const std::string& where, const std::string& what) {
  return make_error(ErrorKind::Parse,
                    std::string(source) + ": " + (where.empty() ? "/" : where) + ": " + what);
}

Error syntax_error(std::string_view text, std::string_view source, const json::parse_error& e) {
  return make_error(ErrorKind::Parse, json_syntax_message(source, text, e.byte, e.what()));
}

std::optional<Color> color_from_json(const json& value) {
  if (value.is_number_unsigned() && value.get<unsigned>() <= 255) {
    return Color::indexed(static_cast<std::uint8_t>(value.get<unsigned>()));
  }
  if (value.is_string()) return parse_color(value.get<std::string>());
  return std::nullopt;
}

std::optional<std::string> parse_style_field(const std::string& key, const json& value,
                                             Style& style) {
  if (key == "fg" || key == "bg") {
    auto color = color_from_json(value);
    if (!color) {
      return "bad colour " + value.dump() +
             " (use \"default\", \"#rrggbb\", 0-255 or a name like \"bright_red\")";
    }
    (key == "fg" ? style.fg : style.bg) = *color;
    return std::nullopt;
  }
  bool Style::*flag = key == "bold"        ? &Style::bold
                      : key == "underline" ? &Style::underline
                      : key == "reverse"   ? &Style::reverse
                      : key == "dim"       ? &Style::dim
                                           : nullptr;
  if (flag == nullptr) return "unknown key (expected fg, bg, bold, underline, reverse, dim)";
  if (!value.is_boolean()) return "expected true or false, got " + value.dump();
  style.*flag = value.get<bool>();
  return std::nullopt;
}

Result<void> parse_roles(const json& roles, std::string_view source, Theme& theme) {
  if (!roles.is_object()) return content_error(source, "/roles", "expected an object");
  for (const auto& [name, value] : roles.items()) {
    std::string where = "/roles/" + name;
    auto role = role_from_name(name);
    if (!role) return content_error(source, where, "unknown role");
    if (!value.is_object()) return content_error(source, where, "expected an object");
    Style style;
    for (const auto& [key, field] : value.items()) {
      if (auto err = parse_style_field(key, field, style)) {
        return content_error(source, where + "/" + key, *err);
      }
    }
    theme.set(*role, style);
  }
  return ok_result();
}

Result<Theme> theme_from_json(const json& doc, std::string_view source) {
  if (!doc.is_object()) return content_error(source, "", "expected an object");
  Theme theme = default_theme();
  theme.set_name(std::filesystem::path(source).stem().string());
  for (const auto& [key, value] : doc.items()) {
    if (key == "name") {
      if (!value.is_string()) return content_error(source, "/name", "expected a string");
      theme.set_name(value.get<std::string>());
    } else if (key == "roles") {
      if (auto r = parse_roles(value, source, theme); !r) return r.error();
    } else if (key != "description" && key != "$schema") {
      return content_error(source, "/" + key, "unknown key (expected name, description, roles)");
    }
  }
  return theme;
}

json color_to_json(Color c) {
  if (c.kind == Color::Kind::Index && c.index >= 16) return c.index;
  return format_color(c);
}

// Ordered so files read fg, bg, then flags.
nlohmann::ordered_json style_to_json(const Style& s) {
  nlohmann::ordered_json out = nlohmann::ordered_json::object();
  if (!s.fg.is_default()) out["fg"] = color_to_json(s.fg);
  if (!s.bg.is_default()) out["bg"] = color_to_json(s.bg);
  if (s.bold) out["bold"] = true;
  if (s.underline) out["underline"] = true;
  if (s.reverse) out["reverse"] = true;
  if (s.dim) out["dim"] = true;
  return out;
}

}  // namespace

std::filesystem::path themes_dir() {
  return TRAINYARD_THEMES_DIR;
}

Result<Theme> parse_theme(std::string_view json_text, std::string_view source) {
  json doc;
  try {
    doc = json::parse(json_text);
  } catch (const json::parse_error& e) {
    return syntax_error(json_text, source, e);
  }
  return theme_from_json(doc, source);
}

Result<Theme> load_theme_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorKind::Io, "cannot read theme file " + path.string());
  std::ostringstream text;
  text << in.rdbuf();
  return parse_theme(text.str(), path.string());
}

namespace {

// The shipped theme of that name as compiled in, for a binary run away from its source tree.
std::optional<ShippedTheme> shipped_theme(std::string_view name) {
  for (const auto& t : shipped_themes())
    if (t.name == name) return t;
  return std::nullopt;
}

std::string shipped_theme_names() {
  std::string names;
  for (const auto& t : shipped_themes()) names += (names.empty() ? "" : ", ") + std::string(t.name);
  return names;
}

}  // namespace

Result<Theme> load_theme(std::string_view name_or_path, const std::filesystem::path& dir) {
  bool is_path =
      name_or_path.find('/') != std::string_view::npos || name_or_path.ends_with(".json");
  if (is_path) return load_theme_file(std::filesystem::path(name_or_path));
  auto file = dir / (std::string(name_or_path) + ".json");
  if (std::filesystem::exists(file)) return load_theme_file(file);
  if (auto shipped = shipped_theme(name_or_path))
    return parse_theme(shipped->json, std::string(name_or_path) + " (built in)");
  return make_error(ErrorKind::Usage, "unknown theme '" + std::string(name_or_path) + "' (" +
                                          shipped_theme_names() + ", a name from " + dir.string() +
                                          ", or a theme file's path)");
}

std::string theme_to_json(const Theme& theme) {
  // One role per line keeps theme files diffable and easy to edit by hand.
  std::string out = "{\n  \"name\": " + json(theme.name()).dump() + ",\n  \"roles\": {\n";
  for (std::size_t i = 0; i < kRoleCount; ++i) {
    auto role = static_cast<Role>(i);
    out += "    " + json(std::string(role_name(role))).dump() + ": " +
           style_to_json(theme.style(role)).dump() + (i + 1 < kRoleCount ? ",\n" : "\n");
  }
  return out + "  }\n}\n";
}

}  // namespace trainyard
