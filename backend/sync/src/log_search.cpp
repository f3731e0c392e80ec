// LogFile::search: chunked memmem over raw bytes, each hit confirmed on the sanitized line.
#include <string.h>  // memmem (GNU)

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <string>

#include "log_file_state.hpp"

namespace trainyard {
namespace {

// ASCII lower-casing, eight bytes at a time (SWAR): this runs over every byte searched.
void fold_all(char* data, size_t len) {
  constexpr uint64_t kOnes = 0x0101010101010101ULL;
  constexpr uint64_t kHigh = 0x8080808080808080ULL;
  size_t i = 0;
  for (; i + 8 <= len; i += 8) {
    uint64_t w;
    std::memcpy(&w, data + i, 8);
    uint64_t low7 = w & ~kHigh;
    uint64_t ge_a = low7 + (0x80 - 'A') * kOnes;      // high bit: byte >= 'A'
    uint64_t gt_z = low7 + (0x80 - 'Z' - 1) * kOnes;  // high bit: byte > 'Z'
    uint64_t upper = ge_a & ~gt_z & ~w & kHigh;       // ASCII only (w's high bit clear)
    w |= upper >> 2;                                  // 0x80 >> 2 == 0x20
    std::memcpy(data + i, &w, 8);
  }
  for (; i < len; ++i) {
    auto c = static_cast<unsigned char>(data[i]);
    if (c >= 'A' && c <= 'Z') data[i] = static_cast<char>(c | 0x20);
  }
}

uint64_t count_newlines(const char* data, size_t len) {
  return static_cast<uint64_t>(std::count(data, data + len, '\n'));
}

// Line number of the byte at off: the nearest checkpoint, then newlines counted from there.
// Only done per hit, so scanning never has to count lines.
Result<uint64_t> line_of(LogFileState& s, uint64_t off) {
  auto it = std::upper_bound(s.checkpoints.begin(), s.checkpoints.end(), off);
  size_t k = static_cast<size_t>(it - s.checkpoints.begin()) - 1;
  uint64_t line = k * s.options.checkpoint_every;
  for (uint64_t pos = s.checkpoints[k]; pos < off;) {
    size_t avail = 0;
    auto p = buffer_at(s, pos, avail);
    if (!p) return p.error();
    if (avail == 0) break;
    size_t n = static_cast<size_t>(std::min<uint64_t>(avail, off - pos));
    line += count_newlines(*p, n);
    pos += n;
  }
  return line;
}

// Reads [off, off + len) into the search window, folded when asked.
Result<const char*> window(LogFileState& s, uint64_t off, size_t len, bool ci) {
  s.search_buf.resize(s.options.chunk_bytes);
  auto n = pread_full(s.fd.get(), s.search_buf.data(), len, off);
  if (!n) return n.error();
  if (*n != len) return make_error(ErrorKind::Io, "log file changed while searching");
  if (ci) fold_all(s.search_buf.data(), len);
  return s.search_buf.data();
}

const char* find_first(const char* data, size_t len, std::string_view needle) {
  return static_cast<const char*>(::memmem(data, len, needle.data(), needle.size()));
}

const char* find_last(const char* data, size_t len, std::string_view needle) {
  const char* last = nullptr;
  for (const char* p = data; (p = find_first(p, len - static_cast<size_t>(p - data), needle));
       ++p) {
    last = p;
    if (static_cast<size_t>(p - data) + 1 >= len) break;
  }
  return last;
}

}  // namespace

Result<bool> LogFile::confirm(size_t line, std::string_view needle, bool ci) {
  auto lines = read_lines(line, 1);
  if (!lines) return lines.error();
  if (lines->empty()) return false;
  std::string& text = lines->front().text;
  if (ci) fold_all(text.data(), text.size());
  return text.find(needle) != std::string::npos;
}

Result<std::optional<size_t>> LogFile::search(std::string_view needle, size_t from,
                                              SearchDirection direction, bool case_insensitive) {
  if (needle.empty() || line_count() == 0) return std::optional<size_t>{};
  if (needle.size() > s_->options.chunk_bytes / 2) {
    return make_error(ErrorKind::Usage, "search text is too long");
  }
  std::string folded(needle);
  if (case_insensitive) fold_all(folded.data(), folded.size());
  if (direction == SearchDirection::Forward) return search_forward(folded, from, case_insensitive);
  return search_backward(folded, std::min(from, line_count() - 1), case_insensitive);
}

Result<std::optional<size_t>> LogFile::search_forward(std::string_view needle, size_t from,
                                                      bool ci) {
  LogFileState& s = *s_;
  if (from >= line_count()) return std::optional<size_t>{};
  auto start = line_start(from);
  if (!start) return start.error();
  uint64_t pos = *start;
  while (pos < s.indexed) {
    size_t len = static_cast<size_t>(std::min<uint64_t>(s.options.chunk_bytes, s.indexed - pos));
    auto data = window(s, pos, len, ci);
    if (!data) return data.error();
    if (const char* hit = find_first(*data, len, needle)) {
      auto hit_line = line_of(s, pos + static_cast<uint64_t>(hit - *data));
      if (!hit_line) return hit_line.error();
      auto ok = confirm(*hit_line, needle, ci);
      if (!ok) return ok.error();
      if (*ok) return std::optional<size_t>(*hit_line);
      // Go on from the next line (its start is found through the index).
      if (*hit_line + 1 >= line_count()) break;
      auto next = line_start(*hit_line + 1);
      if (!next) return next.error();
      pos = *next;
      continue;
    }
    if (pos + len >= s.indexed) break;
    pos += len - (needle.size() - 1);  // keep an overlap for matches across chunks
  }
  return std::optional<size_t>{};
}

Result<std::optional<size_t>> LogFile::search_backward(std::string_view needle, size_t from,
                                                       bool ci) {
  LogFileState& s = *s_;
  uint64_t end = s.indexed;
  if (from + 1 < line_count()) {
    auto e = line_start(from + 1);
    if (!e) return e.error();
    end = *e;
  }
  while (end > 0) {
    uint64_t begin = end > s.options.chunk_bytes ? end - s.options.chunk_bytes : 0;
    size_t len = static_cast<size_t>(end - begin);
    auto data = window(s, begin, len, ci);
    if (!data) return data.error();
    if (const char* hit = find_last(*data, len, needle)) {
      auto hit_line = line_of(s, begin + static_cast<uint64_t>(hit - *data));
      if (!hit_line) return hit_line.error();
      auto ok = confirm(*hit_line, needle, ci);
      if (!ok) return ok.error();
      if (*ok) return std::optional<size_t>(*hit_line);
      if (*hit_line == 0) break;
      auto line_begin = line_start(*hit_line);
      if (!line_begin) return line_begin.error();
      end = *line_begin;
      continue;
    }
    if (begin == 0) break;
    end = begin + needle.size() - 1;  // overlap for matches across chunks
  }
  return std::optional<size_t>{};
}

}  // namespace trainyard
