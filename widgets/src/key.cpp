#include "widgets/key.hpp"

#include <array>

#include "widgets/text.hpp"

namespace trainyard {
namespace {

struct Named {
  std::string_view name;
  Key key;
};

// The first name for a key is the one key_name() prints.
constexpr std::array<Named, 34> kNamed = {{
    {"Up", Key::Up},         {"Down", Key::Down},      {"Left", Key::Left},
    {"Right", Key::Right},   {"PPage", Key::PageUp},   {"PageUp", Key::PageUp},
    {"PgUp", Key::PageUp},   {"NPage", Key::PageDown}, {"PageDown", Key::PageDown},
    {"PgDn", Key::PageDown}, {"Home", Key::Home},      {"End", Key::End},
    {"IC", Key::Insert},     {"Enter", Key::Enter},    {"Escape", Key::Escape},
    {"Tab", Key::Tab},       {"BTab", Key::BackTab},   {"BSpace", Key::Backspace},
    {"DC", Key::Delete},     {"F1", Key::F1},          {"F2", Key::F2},
    {"F3", Key::F3},         {"F4", Key::F4},          {"F5", Key::F5},
    {"F6", Key::F6},         {"F7", Key::F7},          {"F8", Key::F8},
    {"F9", Key::F9},         {"F10", Key::F10},        {"F11", Key::F11},
    {"F12", Key::F12},       {"Resize", Key::Resize},  {"Insert", Key::Insert},
    {"Delete", Key::Delete},
}};

std::optional<KeyEvent> parse_base(std::string_view name) {
  if (name == "Space") return KeyEvent::character(' ');
  for (const auto& n : kNamed) {
    if (n.name == name) return KeyEvent::named(n.key);
  }
  std::size_t pos = 0;
  if (name.empty()) return std::nullopt;
  char32_t cp = decode_utf8(name, pos);
  if (pos != name.size() || cp < 0x20) return std::nullopt;
  return KeyEvent::character(cp);
}

}  // namespace

std::optional<KeyEvent> parse_key_name(std::string_view name) {
  bool ctrl = false, alt = false;
  // Prefixes only count when something follows them: a lone "C" or "-" is a character.
  while (name.size() > 2 && name[1] == '-' && (name[0] == 'C' || name[0] == 'M')) {
    (name[0] == 'C' ? ctrl : alt) = true;
    name.remove_prefix(2);
  }
  auto key = parse_base(name);
  if (!key) return std::nullopt;
  if (ctrl && key->key == Key::Char && key->ch >= 'A' && key->ch <= 'Z') key->ch += 'a' - 'A';
  key->ctrl = ctrl;
  key->alt = alt;
  return key;
}

std::string key_name(const KeyEvent& key) {
  std::string out = std::string(key.ctrl ? "C-" : "") + (key.alt ? "M-" : "");
  if (key.key == Key::Char) {
    if (key.ch == ' ') return out + "Space";
    append_utf8(out, key.ch);
    return out;
  }
  for (const auto& n : kNamed) {
    if (n.key == key.key) return out + std::string(n.name);
  }
  if (key.key == Key::Click) return out + "Click";
  if (key.key == Key::WheelUp) return out + "WheelUp";
  if (key.key == Key::WheelDown) return out + "WheelDown";
  return out + "?";
}

}  // namespace trainyard
