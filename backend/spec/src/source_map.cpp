#include "spec/source_map.hpp"

#include <fstream>
#include <sstream>
#include <string>
#include <unordered_set>

namespace trainyard::spec {

SourcePos SourceMap::pos(std::string_view pointer) const {
  std::string key(pointer);
  for (;;) {
    if (auto it = pos_.find(key); it != pos_.end()) return it->second;
    if (key.empty()) return SourcePos{};
    key.erase(key.rfind('/'));
  }
}

Error SourceMap::error(std::string_view pointer, std::string_view what) const {
  return spec_error(file_, pos(pointer), pointer, what);
}

std::string SourceMap::place(std::string_view pointer) const {
  return spec_place(file_, pos(pointer), pointer);
}

std::string SourceMap::location(std::string_view pointer) const {
  return spec_location(file_, pos(pointer));
}

namespace {

void append_utf8(std::string& out, unsigned cp) {
  if (cp < 0x80) {
    out += static_cast<char>(cp);
  } else if (cp < 0x800) {
    out += static_cast<char>(0xC0 | (cp >> 6));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else if (cp < 0x10000) {
    out += static_cast<char>(0xE0 | (cp >> 12));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  } else {
    out += static_cast<char>(0xF0 | (cp >> 18));
    out += static_cast<char>(0x80 | ((cp >> 12) & 0x3F));
    out += static_cast<char>(0x80 | ((cp >> 6) & 0x3F));
    out += static_cast<char>(0x80 | (cp & 0x3F));
  }
}

// Walks text that a strict JSON parser has already accepted, so it only has to find where each
// value starts; it does not re-validate the grammar.
class JsonIndexer {
 public:
  JsonIndexer(std::string_view text, SourceMap& map) : t_(text), map_(map) {}

  Result<void> run() {
    if (t_.substr(0, 3) == "\xEF\xBB\xBF") i_ = line_start_ = 3;  // UTF-8 BOM, as nlohmann skips it
    return value("", 0);
  }

 private:
  static constexpr int kMaxDepth = 512;

  SourcePos here() const { return {line_, static_cast<int>(i_ - line_start_) + 1}; }
  char peek() const { return i_ < t_.size() ? t_[i_] : '\0'; }

  void skip_ws() {
    while (i_ < t_.size() &&
           (t_[i_] == ' ' || t_[i_] == '\t' || t_[i_] == '\n' || t_[i_] == '\r')) {
      if (t_[i_] == '\n') {
        ++line_;
        line_start_ = i_ + 1;
      }
      ++i_;
    }
  }

  unsigned hex4() {
    unsigned v = 0;
    for (int k = 0; k < 4 && i_ < t_.size(); ++k, ++i_) {
      char c = t_[i_];
      unsigned d = c <= '9' ? unsigned(c - '0') : unsigned((c | 0x20) - 'a' + 10);
      v = v * 16 + d;
    }
    return v;
  }

  unsigned escaped_codepoint() {
    unsigned cp = hex4();
    if (cp >= 0xD800 && cp < 0xDC00 && peek() == '\\') {
      i_ += 2;  // a valid document pairs a high surrogate with `\uDC00`..`\uDFFF`
      cp = 0x10000 + ((cp - 0xD800) << 10) + (hex4() - 0xDC00);
    }
    return cp;
  }

  void escape(std::string& out) {
    char c = t_[i_++];
    switch (c) {
      case 'b':
        out += '\b';
        break;
      case 'f':
        out += '\f';
        break;
      case 'n':
        out += '\n';
        break;
      case 'r':
        out += '\r';
        break;
      case 't':
        out += '\t';
        break;
      case 'u':
        append_utf8(out, escaped_codepoint());
        break;
      default:
        out += c;
    }
  }

  std::string string() {
    std::string out;
    ++i_;  // opening quote
    while (i_ < t_.size() && t_[i_] != '"') {
      if (t_[i_] == '\\') {
        ++i_;
        escape(out);
      } else {
        out += t_[i_++];
      }
    }
    ++i_;  // closing quote
    return out;
  }

  void scalar() {
    while (i_ < t_.size() && t_[i_] != ',' && t_[i_] != '}' && t_[i_] != ']' && t_[i_] != ' ' &&
           t_[i_] != '\n' && t_[i_] != '\r' && t_[i_] != '\t') {
      ++i_;
    }
  }

  Result<void> object(const std::string& ptr, int depth) {
    ++i_;
    std::unordered_set<std::string> seen;
    for (skip_ws(); peek() == '"'; skip_ws()) {
      SourcePos key_pos = here();
      std::string key = string();
      std::string child = pointer_join(ptr, key);
      if (!seen.insert(key).second) {
        return spec_error(map_.file(), key_pos, child, "duplicate key; each field may appear once");
      }
      skip_ws();
      ++i_;  // ':'
      if (auto r = value(child, depth + 1); !r) return r;
      skip_ws();
      if (peek() == ',') ++i_;
    }
    ++i_;  // '}'
    return ok_result();
  }

  Result<void> array(const std::string& ptr, int depth) {
    ++i_;
    std::size_t index = 0;
    for (skip_ws(); peek() != ']' && i_ < t_.size(); skip_ws()) {
      if (auto r = value(pointer_join(ptr, index++), depth + 1); !r) return r;
      skip_ws();
      if (peek() == ',') ++i_;
    }
    ++i_;  // ']'
    return ok_result();
  }

  Result<void> value(const std::string& ptr, int depth) {
    skip_ws();
    if (depth > kMaxDepth) return spec_error(map_.file(), here(), ptr, "nesting too deep");
    map_.add(ptr, here());
    switch (peek()) {
      case '{':
        return object(ptr, depth);
      case '[':
        return array(ptr, depth);
      case '"':
        string();
        return ok_result();
      default:
        scalar();
        return ok_result();
    }
  }

  std::string_view t_;
  SourceMap& map_;
  std::size_t i_ = 0;
  std::size_t line_start_ = 0;
  int line_ = 1;
};

}  // namespace

Result<SourceMap> index_json(std::string file, std::string_view text) {
  SourceMap map(std::move(file));
  JsonIndexer indexer(text, map);
  if (auto r = indexer.run(); !r) return r.error();
  return map;
}

}  // namespace trainyard::spec

namespace trainyard::spec {

Result<std::string> read_source_file(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorKind::Io, path.string() + ": cannot read the file");
  std::ostringstream text;
  text << in.rdbuf();
  if (in.bad()) return make_error(ErrorKind::Io, path.string() + ": read failed");
  return text.str();
}

}  // namespace trainyard::spec
