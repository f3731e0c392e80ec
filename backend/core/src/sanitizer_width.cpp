// Display width of text: glibc's wcwidth under a C.UTF-8 locale, so widths match ncurses.
//
// wcwidth depends on LC_CTYPE. The process locale is not ours to change (and may be "C", where
// every non-ASCII character is -1), so a C.UTF-8 locale object is made once and installed for the
// calling thread only (uselocale) around each computation. If C.UTF-8 is missing, a small table
// of the common wide and zero-width ranges stands in.
#include <clocale>
#include <cwchar>

#include <locale.h>

#include "core/sanitizer.hpp"
#include "sanitizer_internal.hpp"

namespace trainyard {
namespace {

constexpr detail::CodeRange kWide[] = {
    {0x1100, 0x115F},   {0x2E80, 0x303E},   {0x3041, 0x33FF},   {0x3400, 0x4DBF},
    {0x4E00, 0x9FFF},   {0xA000, 0xA4CF},   {0xAC00, 0xD7A3},   {0xF900, 0xFAFF},
    {0xFE30, 0xFE4F},   {0xFF00, 0xFF60},   {0xFFE0, 0xFFE6},   {0x1F300, 0x1F64F},
    {0x1F900, 0x1F9FF}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
};
constexpr detail::CodeRange kZero[] = {
    {0x0300, 0x036F}, {0x0483, 0x0489}, {0x0591, 0x05BD}, {0x200B, 0x200F},
    {0x20D0, 0x20FF}, {0xFE00, 0xFE0F}, {0xFE20, 0xFE2F},
};

bool in(const detail::CodeRange* begin, const detail::CodeRange* end, char32_t cp) {
  for (const detail::CodeRange* r = begin; r != end; ++r) {
    if (cp >= r->lo && cp <= r->hi) return true;
  }
  return false;
}

int table_width(char32_t cp) {
  if (in(std::begin(kZero), std::end(kZero), cp)) return 0;
  return in(std::begin(kWide), std::end(kWide), cp) ? 2 : 1;
}

// Made once, never freed or changed: a read-only locale object shared by all threads.
locale_t utf8_locale() {
  static const locale_t loc = newlocale(LC_CTYPE_MASK, "C.UTF-8", static_cast<locale_t>(0));
  return loc;
}

// Installs the C.UTF-8 locale for this thread while alive.
class ScopedUtf8Locale {
 public:
  ScopedUtf8Locale() : loc_(utf8_locale()) {
    if (loc_) old_ = uselocale(loc_);
  }
  ~ScopedUtf8Locale() {
    if (loc_) uselocale(old_);
  }
  ScopedUtf8Locale(const ScopedUtf8Locale&) = delete;
  ScopedUtf8Locale& operator=(const ScopedUtf8Locale&) = delete;
  bool ok() const { return loc_ != static_cast<locale_t>(0); }

 private:
  locale_t loc_;
  locale_t old_ = static_cast<locale_t>(0);
};

// Width under an already installed locale (or the table when there is none).
int width_in(const ScopedUtf8Locale& scope, char32_t cp) {
  if (cp >= 0x20 && cp < 0x7F) return 1;
  if (!scope.ok()) return table_width(cp);
  int w = wcwidth(static_cast<wchar_t>(cp));
  return w < 0 ? 1 : w;
}

// Decodes one code point at s[i]; invalid bytes yield U+FFFD and advance by one.
char32_t next_codepoint(std::string_view s, size_t& i) {
  auto b = static_cast<unsigned char>(s[i]);
  size_t n = b < 0x80                  ? 1
             : (b >= 0xC2 && b < 0xE0) ? 2
             : (b >= 0xE0 && b < 0xF0) ? 3
             : (b >= 0xF0 && b < 0xF5) ? 4
                                       : 0;
  if (n == 0 || i + n > s.size()) return ++i, 0xFFFD;
  char32_t cp = n == 1 ? b : b & (0x7F >> n);
  for (size_t k = 1; k < n; ++k) {
    auto c = static_cast<unsigned char>(s[i + k]);
    if ((c & 0xC0) != 0x80) return ++i, 0xFFFD;
    cp = (cp << 6) | (c & 0x3F);
  }
  i += n;
  return cp;
}

}  // namespace

int codepoint_width(char32_t cp) {
  if (cp >= 0x20 && cp < 0x7F) return 1;
  ScopedUtf8Locale scope;
  return width_in(scope, cp);
}

size_t display_width(std::string_view utf8) {
  ScopedUtf8Locale scope;
  size_t width = 0;
  for (size_t i = 0; i < utf8.size();)
    width += static_cast<size_t>(width_in(scope, next_codepoint(utf8, i)));
  return width;
}

}  // namespace trainyard
