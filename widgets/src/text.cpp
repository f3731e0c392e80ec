#include "widgets/text.hpp"

namespace trainyard {
namespace {

constexpr char32_t kReplacement = 0xFFFD;

int sequence_length(unsigned char lead) {
  if (lead < 0x80) return 1;
  if (lead >= 0xC2 && lead <= 0xDF) return 2;
  if (lead >= 0xE0 && lead <= 0xEF) return 3;
  if (lead >= 0xF0 && lead <= 0xF4) return 4;
  return 0;
}

bool valid_scalar(char32_t cp, int len) {
  static constexpr char32_t kMin[] = {0, 0, 0x80, 0x800, 0x10000};
  return cp >= kMin[len] && cp <= 0x10FFFF && (cp < 0xD800 || cp > 0xDFFF);
}

int cell_width(char32_t cp) {
  int w = codepoint_width(cp);
  return w < 0 ? 1 : w;
}

void append_pieces(std::vector<std::string>& lines, std::string_view word, int width);

}  // namespace

char32_t decode_utf8(std::string_view text, std::size_t& pos) {
  auto lead = static_cast<unsigned char>(text[pos]);
  int len = sequence_length(lead);
  if (len == 0 || pos + static_cast<std::size_t>(len) > text.size()) {
    ++pos;
    return kReplacement;
  }
  if (len == 1) return text[pos++];
  char32_t cp = lead & (0x7F >> len);
  for (int i = 1; i < len; ++i) {
    auto byte = static_cast<unsigned char>(text[pos + static_cast<std::size_t>(i)]);
    if ((byte & 0xC0) != 0x80) {
      pos += static_cast<std::size_t>(i);
      return kReplacement;
    }
    cp = (cp << 6) | (byte & 0x3F);
  }
  pos += static_cast<std::size_t>(len);
  return valid_scalar(cp, len) ? cp : kReplacement;
}

void append_utf8(std::string& out, char32_t cp) {
  auto put = [&out](char32_t v) { out.push_back(static_cast<char>(v)); };
  if (cp < 0x80) {
    put(cp);
  } else if (cp < 0x800) {
    put(0xC0 | (cp >> 6)), put(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    put(0xE0 | (cp >> 12)), put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
  } else {
    put(0xF0 | (cp >> 18)), put(0x80 | ((cp >> 12) & 0x3F));
    put(0x80 | ((cp >> 6) & 0x3F)), put(0x80 | (cp & 0x3F));
  }
}

std::string_view drawable_text(std::string_view text, std::string& storage) {
  if (is_inert_text(text)) return text;
  storage = sanitize_text(text);
  return storage;
}

int text_width(std::string_view raw) {
  std::string storage;
  std::string_view text = drawable_text(raw, storage);
  int width = 0;
  for (std::size_t pos = 0; pos < text.size();) width += cell_width(decode_utf8(text, pos));
  return width;
}

std::string truncate_to_width(std::string_view raw, int width) {
  std::string storage;
  std::string_view text = drawable_text(raw, storage);
  if (text_width(text) <= width) return std::string(text);
  if (width <= 0) return {};
  int used = 0;
  std::size_t pos = 0, cut = 0;
  while (pos < text.size()) {
    std::size_t next = pos;
    int w = cell_width(decode_utf8(text, next));
    if (used + w > width - 1) break;
    used += w;
    pos = cut = next;
  }
  return std::string(text.substr(0, cut)) + "…";
}

std::string truncate_left_to_width(std::string_view raw, int width) {
  std::string storage;
  std::string_view text = drawable_text(raw, storage);
  if (text_width(text) <= width) return std::string(text);
  if (width <= 0) return {};
  // Walk forward dropping code points until the rest fits beside the ellipsis.
  std::size_t pos = 0;
  int rest = text_width(text);
  while (pos < text.size() && rest > width - 1) rest -= cell_width(decode_utf8(text, pos));
  // Combining marks whose base was dropped go too.
  for (std::size_t next = pos; pos < text.size() && codepoint_width(decode_utf8(text, next)) == 0;)
    pos = next;
  return "…" + std::string(text.substr(pos));
}

std::string truncate_middle_to_width(std::string_view raw, int width) {
  std::string storage;
  std::string_view text = drawable_text(raw, storage);
  if (text_width(text) <= width) return std::string(text);
  if (width < 3) return truncate_to_width(text, width);
  int half = (width - 1) / 2;
  auto sep = text.find_last_of("-_./:");
  int tail_w = sep == std::string_view::npos ? half + 1 : text_width(text.substr(sep));
  if (tail_w > half) tail_w = half;
  std::string tail = truncate_left_to_width(text, tail_w + 1).substr(3);  // drops the `…`
  std::string head = truncate_to_width(text, width - text_width(tail));
  return head + tail;
}

std::string truncate_keeping_last_word(std::string_view raw, int width) {
  std::string storage;
  std::string_view text = drawable_text(raw, storage);
  if (text_width(text) <= width) return std::string(text);
  auto space = text.rfind(' ');
  if (space == std::string_view::npos || space == 0) return truncate_to_width(text, width);
  std::string_view word = text.substr(space + 1);
  int room = width - text_width(word) - 1;
  if (room < 2) return truncate_to_width(text, width);
  return truncate_to_width(text.substr(0, space), room) + " " + std::string(word);
}

std::string fit_to_width(std::string_view text, int width, Align align) {
  std::string s = truncate_to_width(text, width);
  int pad = width - text_width(s);
  if (pad <= 0) return s;
  int before = align == Align::Right ? pad : align == Align::Center ? pad / 2 : 0;
  return std::string(static_cast<std::size_t>(before), ' ') + s +
         std::string(static_cast<std::size_t>(pad - before), ' ');
}

std::vector<std::string> wrap_words(std::string_view text, int width) {
  std::vector<std::string> lines(1);
  if (width <= 0) return lines;
  std::size_t pos = 0;
  while (pos <= text.size()) {
    std::size_t end = text.find_first_of(" \n", pos);
    if (end == std::string_view::npos) end = text.size();
    std::string storage;  // each line of the text, drawable on its own
    append_pieces(lines, drawable_text(text.substr(pos, end - pos), storage), width);
    if (end < text.size() && text[end] == '\n') lines.emplace_back();
    pos = end + 1;
  }
  return lines;
}

namespace {

void append_pieces(std::vector<std::string>& lines, std::string_view word, int width) {
  if (word.empty()) return;
  int ww = text_width(word);
  int lw = text_width(lines.back());
  if (lw > 0 && lw + 1 + ww <= width) {
    lines.back() += " ";
    lines.back() += word;
    return;
  }
  if (lw > 0) lines.emplace_back();
  // A word wider than the line is split at cell boundaries.
  for (std::size_t pos = 0; pos < word.size();) {
    std::size_t next = pos;
    int w = cell_width(decode_utf8(word, next));
    if (text_width(lines.back()) + w > width) lines.emplace_back();
    lines.back() += word.substr(pos, next - pos);
    pos = next;
  }
}

}  // namespace
}  // namespace trainyard
