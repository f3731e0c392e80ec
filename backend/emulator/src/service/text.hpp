// The emulator's ASCII text helpers: its own, like the rest of what judges the client, and
// locale-free, so a comparison does not depend on setlocale.
#pragma once

#include <string>
#include <string_view>

namespace trainyard::emu {

/// `c` in lowercase when it is an ASCII capital; any other byte unchanged.
constexpr char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
}

/// Whether `a` and `b` are equal but for ASCII case.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

/// `s` with its ASCII capitals lowered.
inline std::string ascii_lowercase(std::string s) {
  for (char& c : s) c = ascii_lower(c);
  return s;
}

}  // namespace trainyard::emu
