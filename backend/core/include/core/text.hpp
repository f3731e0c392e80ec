// Small ASCII text helpers for protocol text (header names, enum values, hosts): no locale, so
// the answer does not depend on setlocale.
#pragma once

#include <string>
#include <string_view>

namespace trainyard {

/// `c` in lowercase when it is an ASCII capital; any other byte unchanged.
constexpr char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

/// Whether `a` and `b` are equal but for ASCII case.
constexpr bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (size_t i = 0; i < a.size(); ++i) {
    if (ascii_lower(a[i]) != ascii_lower(b[i])) return false;
  }
  return true;
}

/// `s` without its trailing `c`s (`https://h//` → `https://h` for '/').
inline std::string trim_trailing(std::string s, char c) {
  while (!s.empty() && s.back() == c) s.pop_back();
  return s;
}

/// `s` without the spaces, tabs, CRs and LFs around it.
constexpr std::string_view trim_space(std::string_view s) {
  const size_t first = s.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

/// `s` with its ASCII capitals lowered.
inline std::string ascii_lowercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

}  // namespace trainyard
