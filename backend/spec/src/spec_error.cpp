#include "spec/spec_error.hpp"

#include <algorithm>

#include <fmt/format.h>

namespace trainyard::spec {

namespace {

// Messages are one line so that editors and `grep` can jump to them.
std::string one_line(std::string_view text) {
  std::string out(text);
  std::replace_if(
      out.begin(), out.end(), [](char c) { return c == '\n' || c == '\r'; }, ' ');
  return out;
}

}  // namespace

std::string spec_location(std::string_view file, SourcePos pos) {
  return fmt::format("{}:{}:{}", file, pos.line, pos.col);
}

Error spec_error(std::string_view file, SourcePos pos, std::string_view pointer,
                 std::string_view what) {
  std::string_view field = pointer.empty() ? std::string_view("/") : pointer;
  return make_error(ErrorKind::Parse, fmt::format("{}: {}: {}", spec_location(file, pos),
                                                  one_line(field), one_line(what)));
}

std::string spec_place(std::string_view file, SourcePos pos, std::string_view pointer) {
  return fmt::format("{} {}", spec_location(file, pos), pointer.empty() ? "/" : pointer);
}

std::string pointer_token(std::string_view key) {
  std::string out;
  out.reserve(key.size());
  for (char c : key) {
    if (c == '~') {
      out += "~0";
    } else if (c == '/') {
      out += "~1";
    } else {
      out += c;
    }
  }
  return out;
}

std::string pointer_join(std::string_view parent, std::string_view key) {
  return fmt::format("{}/{}", parent, pointer_token(key));
}

std::string pointer_join(std::string_view parent, std::size_t index) {
  return fmt::format("{}/{}", parent, index);
}

SourcePos pos_at_offset(std::string_view text, std::size_t offset) {
  offset = std::min(offset, text.size());
  SourcePos pos{1, 1};
  for (std::size_t i = 0; i < offset; ++i) {
    if (text[i] == '\n') {
      ++pos.line;
      pos.col = 1;
    } else {
      ++pos.col;
    }
  }
  return pos;
}

}  // namespace trainyard::spec
