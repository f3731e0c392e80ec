// The sanitizer's line buffer (terminal-like overwrite semantics) and SGR interpretation.
#include <algorithm>
#include <charconv>

#include "sanitizer_internal.hpp"

namespace trainyard::detail {

size_t encode_utf8(char32_t cp, char* out) {
  if (cp < 0x80) {
    out[0] = static_cast<char>(cp);
    return 1;
  }
  size_t n = cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  static constexpr unsigned char kLead[] = {0, 0, 0xC0, 0xE0, 0xF0};
  for (size_t k = n - 1; k > 0; --k, cp >>= 6) out[k] = static_cast<char>(0x80 | (cp & 0x3F));
  out[0] = static_cast<char>(kLead[n] | cp);
  return n;
}

void append_utf8(std::string& out, char32_t cp) {
  char buf[4];
  out.append(buf, encode_utf8(cp, buf));
}

void LineBuffer::put(char32_t cp, bool placeholder) {
  Cell cell;
  cell.len = static_cast<uint8_t>(encode_utf8(cp, cell.bytes));
  cell.width = static_cast<uint8_t>(cp < 0x80 ? 1 : codepoint_width(cp));
  cell.placeholder = placeholder;
  cell.style = style;
  put_cell(cell);
}

void LineBuffer::put_placeholder(std::string_view utf8) {
  // Placeholders are short, known-good UTF-8 written by the sanitizer itself.
  size_t i = 0;
  while (i < utf8.size()) {
    auto b = static_cast<unsigned char>(utf8[i]);
    size_t n = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    char32_t cp = n == 1 ? b : b & (0x3F >> (n - 1));
    for (size_t k = 1; k < n && i + k < utf8.size(); ++k) cp = (cp << 6) | (utf8[i + k] & 0x3F);
    put(cp, true);
    i += n;
  }
}

void LineBuffer::put_cell(const Cell& cell) {
  dirty_ = true;
  if (cursor_ >= cells_.size()) {
    if (cells_.size() >= options_.max_line_chars) split_line();
    cells_.push_back(cell);
  } else {
    cells_[cursor_] = cell;
  }
  ++cursor_;
  col_ += cell.width;
}

void LineBuffer::split_line() {
  Cell mark;
  std::string_view ellipsis = "\u2026";
  std::copy(ellipsis.begin(), ellipsis.end(), mark.bytes);
  mark.len = static_cast<uint8_t>(ellipsis.size());
  mark.width = 1;
  mark.placeholder = true;
  cells_.push_back(mark);
  done_.push_back(render(true));
  cells_.clear();
  cursor_ = 0;
  col_ = 0;
}

void LineBuffer::backspace() {
  dirty_ = true;
  if (cursor_ == 0) return;
  --cursor_;
  col_ -= std::min<size_t>(col_, cells_[cursor_].width);
}

void LineBuffer::tab() {
  dirty_ = true;
  size_t width = std::max<size_t>(1, options_.tab_width);
  size_t target = (col_ / width + 1) * width;
  // As on a terminal, a tab moves over existing text without erasing it.
  while (col_ < target) {
    if (cursor_ < cells_.size()) {
      col_ += std::max<size_t>(1, cells_[cursor_].width);
      ++cursor_;
    } else {
      TextStyle saved = std::exchange(style, TextStyle{});
      size_t before = col_;
      put(U' ', false);
      style = saved;
      // The pad reached the length cap and the line was split: the tab ends with that line
      // (padding on would restart at column 0 and never reach the stop).
      if (col_ <= before) break;
    }
  }
}

void LineBuffer::erase_in_line(int mode) {
  dirty_ = true;
  Cell blank;
  blank.bytes[0] = ' ';
  blank.len = 1;
  blank.width = 1;
  if (mode == 0 || mode == 2) cells_.resize(std::min(cursor_, cells_.size()), blank);
  if (mode == 1 || mode == 2) {
    size_t upto = std::min(cursor_ + (mode == 1 ? 1 : 0), cells_.size());
    std::fill(cells_.begin(), cells_.begin() + static_cast<std::ptrdiff_t>(upto), blank);
  }
}

void LineBuffer::end_line() {
  done_.push_back(render(false));
  cells_.clear();
  cursor_ = 0;
  col_ = 0;
  dirty_ = false;
}

std::optional<SanitizedLine> LineBuffer::pending() const {
  if (!dirty_) return std::nullopt;
  return render(false);
}

SanitizedLine LineBuffer::render(bool split) const {
  SanitizedLine line;
  line.split = split;
  line.text.reserve(cells_.size());
  for (const Cell& c : cells_) {
    size_t begin = line.text.size();
    line.text.append(c.bytes, c.len);
    if (c.style.is_default() && !c.placeholder) continue;
    Span* last = line.spans.empty() ? nullptr : &line.spans.back();
    if (last && last->end == begin && last->style == c.style &&
        last->placeholder == c.placeholder) {
      last->end = line.text.size();
    } else {
      line.spans.push_back(Span{begin, line.text.size(), c.style, c.placeholder});
    }
  }
  return line;
}

namespace {

// SGR parameters as groups split by `;`, each group split by `:` into sub-parameters.
using SgrGroups = std::vector<std::vector<int>>;

SgrGroups split_sgr(std::string_view params) {
  SgrGroups groups(1, std::vector<int>(1, 0));
  for (char ch : params) {
    if (ch == ';') {
      groups.emplace_back(1, 0);
    } else if (ch == ':') {
      groups.back().push_back(0);
    } else if (ch >= '0' && ch <= '9') {
      int& v = groups.back().back();
      v = std::min(v * 10 + (ch - '0'), 65535);
    }
  }
  return groups;
}

int16_t cube_index(int r, int g, int b) {
  auto level = [](int v) { return (std::clamp(v, 0, 255) * 5 + 127) / 255; };
  return static_cast<int16_t>(16 + 36 * level(r) + 6 * level(g) + level(b));
}

// Reads an extended colour (5;n or 2;r;g;b) from `values`; returns kDefaultColor when malformed.
int16_t extended_color(const std::vector<int>& v) {
  if (v.size() >= 2 && v[0] == 5) return static_cast<int16_t>(std::clamp(v[1], 0, 255));
  if (v.size() >= 4 && v[0] == 2) {
    size_t at = v.size() >= 5 ? v.size() - 3 : 1;  // the colon form may carry a colour-space id
    return cube_index(v[at], v[at + 1], v[at + 2]);
  }
  return kDefaultColor;
}

// Consumes 38/48 and its colour arguments starting at groups[i]; returns the groups used.
size_t take_extended(const SgrGroups& groups, size_t i, int16_t& color) {
  if (groups[i].size() > 1) {  // colon form: 38:5:n, 38:2::r:g:b
    color = extended_color(std::vector<int>(groups[i].begin() + 1, groups[i].end()));
    return 1;
  }
  std::vector<int> args;
  size_t want = i + 1 < groups.size() && groups[i + 1][0] == 5 ? 2 : 4;
  for (size_t k = i + 1; k < groups.size() && args.size() < want; ++k) args.push_back(groups[k][0]);
  color = extended_color(args);
  return 1 + args.size();
}

void apply_simple(int p, TextStyle& s) {
  if (p == 0)
    s = TextStyle{};
  else if (p == 1)
    s.bold = true;
  else if (p == 2)
    s.dim = true;
  else if (p == 3)
    s.italic = true;
  else if (p == 4)
    s.underline = true;
  else if (p == 7)
    s.reverse = true;
  else if (p == 22)
    s.bold = s.dim = false;
  else if (p == 23)
    s.italic = false;
  else if (p == 24)
    s.underline = false;
  else if (p == 27)
    s.reverse = false;
  else if (p >= 30 && p <= 37)
    s.fg = static_cast<int16_t>(p - 30);
  else if (p == 39)
    s.fg = kDefaultColor;
  else if (p >= 40 && p <= 47)
    s.bg = static_cast<int16_t>(p - 40);
  else if (p == 49)
    s.bg = kDefaultColor;
  else if (p >= 90 && p <= 97)
    s.fg = static_cast<int16_t>(p - 90 + 8);
  else if (p >= 100 && p <= 107)
    s.bg = static_cast<int16_t>(p - 100 + 8);
}

}  // namespace

void apply_sgr(std::string_view params, TextStyle& style) {
  SgrGroups groups = split_sgr(params);
  for (size_t i = 0; i < groups.size();) {
    int p = groups[i][0];
    if (p == 38 || p == 48) {
      int16_t color = kDefaultColor;
      i += take_extended(groups, i, color);
      (p == 38 ? style.fg : style.bg) = color;
    } else {
      apply_simple(p, style);
      ++i;
    }
  }
}

}  // namespace trainyard::detail
