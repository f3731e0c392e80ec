#include "output.hpp"

#include <nlohmann/json.hpp>

#include "widgets/text.hpp"

namespace trainyard::out {
namespace {

// `\uXXXX` for one code point (a surrogate pair above U+FFFF).
std::string json_escape(char32_t cp) {
  if (cp < 0x10000) return fmt::format("\\u{:04x}", static_cast<unsigned>(cp));
  cp -= 0x10000;
  return fmt::format("\\u{:04x}\\u{:04x}", static_cast<unsigned>(0xD800 + (cp >> 10)),
                     static_cast<unsigned>(0xDC00 + (cp & 0x3FF)));
}

// In JSON text every non-ASCII character and DEL sits inside a string, where an escape means the
// same character: those a terminal would act on, or that hide or reorder text, are escaped.
std::string inert_json(std::string_view dumped) {
  if (is_inert_text(dumped)) return std::string(dumped);
  std::string out;
  out.reserve(dumped.size());
  for (size_t pos = 0; pos < dumped.size();) {
    const size_t start = pos;
    const char32_t cp = decode_utf8(dumped, pos);
    const std::string_view bytes = dumped.substr(start, pos - start);
    if (bytes == "\n" || is_inert_text(bytes))
      out += bytes;
    else
      out += json_escape(cp);  // invalid bytes decode to U+FFFD
  }
  return out;
}

}  // namespace

void line(std::FILE* to, std::string_view text) {
  std::string shown = sanitize_text(text);
  shown += '\n';
  std::fwrite(shown.data(), 1, shown.size(), to);
}

void lines(std::FILE* to, std::string_view text) {
  for (size_t start = 0;;) {
    const size_t end = text.find('\n', start);
    line(to, text.substr(start, end == std::string_view::npos ? end : end - start));
    if (end == std::string_view::npos) return;
    start = end + 1;
  }
}

void text(std::FILE* to, std::string_view text) {
  const std::string shown = sanitize_text(text);
  std::fwrite(shown.data(), 1, shown.size(), to);
  std::fflush(to);
}

void json(const nlohmann::json& value, int indent) {
  json_text(value.dump(indent, ' ', false, nlohmann::json::error_handler_t::replace));
}

void json_text(std::string_view dumped) {
  std::string shown = inert_json(dumped);
  shown += '\n';
  std::fwrite(shown.data(), 1, shown.size(), stdout);
}

void raw(std::FILE* to, std::string_view bytes) {
  std::fwrite(bytes.data(), 1, bytes.size(), to);
  std::fflush(to);
}

std::string csv_field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string quoted = "\"";
  for (char c : s) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

}  // namespace trainyard::out
