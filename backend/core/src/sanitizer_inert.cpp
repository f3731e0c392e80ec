// Which characters the sanitizer hides, and the check that text needs no sanitizing at all.

#include "core/sanitizer.hpp"
#include "sanitizer_internal.hpp"

namespace trainyard {
namespace {

// Unicode's format characters (General Category Cf, Unicode 15), the Hangul fillers (letters
// that draw nothing) and the line / paragraph separators. Sorted.
constexpr detail::CodeRange kHidden[] = {
    {0x00AD, 0x00AD},   {0x0600, 0x0605},   {0x061C, 0x061C},   {0x06DD, 0x06DD},
    {0x070F, 0x070F},   {0x0890, 0x0891},   {0x08E2, 0x08E2},   {0x115F, 0x1160},
    {0x180E, 0x180E},   {0x200B, 0x200F},   {0x2028, 0x202E},   {0x2060, 0x2064},
    {0x2066, 0x206F},   {0x3164, 0x3164},   {0xFEFF, 0xFEFF},   {0xFFA0, 0xFFA0},
    {0xFFF9, 0xFFFB},   {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F},
    {0x1BCA0, 0x1BCA3}, {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F},
};

// Decodes one well-formed UTF-8 sequence at s[i] (Unicode §3.9 Table 3-7); false when the bytes
// there are not one.
bool decode_strict(std::string_view s, size_t& i, char32_t& cp) {
  auto at = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
  unsigned char b = at(0);
  size_t n = b < 0x80                   ? 1
             : (b >= 0xC2 && b <= 0xDF) ? 2
             : (b >= 0xE0 && b <= 0xEF) ? 3
             : (b >= 0xF0 && b <= 0xF4) ? 4
                                        : 0;
  if (n == 0 || i + n > s.size()) return false;
  unsigned char lo = b == 0xE0 ? 0xA0 : b == 0xF0 ? 0x90 : 0x80;
  unsigned char hi = b == 0xED ? 0x9F : b == 0xF4 ? 0x8F : 0xBF;
  cp = n == 1 ? b : b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    if (at(k) < (k == 1 ? lo : 0x80) || at(k) > (k == 1 ? hi : 0xBF)) return false;
    cp = (cp << 6) | (at(k) & 0x3F);
  }
  i += n;
  return true;
}

}  // namespace

namespace detail {

bool is_hidden_format(char32_t cp) {
  if (cp < 0xAD) return false;
  for (const detail::CodeRange& r : kHidden) {
    if (cp < r.lo) return false;
    if (cp <= r.hi) return true;
  }
  return false;
}

}  // namespace detail

bool is_inert_text(std::string_view bytes) {
  for (size_t i = 0; i < bytes.size();) {
    auto b = static_cast<unsigned char>(bytes[i]);
    if (b >= 0x20 && b < 0x7F) {
      ++i;
      continue;
    }
    char32_t cp = 0;
    if (b < 0x80 || !decode_strict(bytes, i, cp)) return false;  // C0, DEL or not UTF-8
    if (cp <= 0x9F || detail::is_hidden_format(cp)) return false;
  }
  return true;
}

}  // namespace trainyard
