// Internal state of a LogFile, shared by its index/read and search source files.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

#include "sync/log_file.hpp"

namespace trainyard {

/// An open file descriptor, closed on destruction.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd();
  Fd(Fd&& o) noexcept : fd_(std::exchange(o.fd_, -1)) {}
  Fd& operator=(Fd&& o) noexcept;
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_ = -1;
};

/// Complete lines (ended by '\n') as the last read_lines sanitized them, lines [first, …).
struct ReadLines {
  size_t first = 0;
  std::vector<uint64_t> starts;  ///< each line's offset
  uint64_t end = 0;              ///< the offset after the last line's '\n'
  std::vector<SanitizedLine> lines;
  bool holds(size_t line) const { return line >= first && line - first < lines.size(); }
};

struct LogFileState {
  std::filesystem::path path;
  LogFileOptions options;
  Fd fd;
  dev_t dev = 0;
  ino_t ino = 0;
  uint64_t indexed = 0;                  // bytes scanned
  uint64_t newlines = 0;                 // '\n' in [0, indexed)
  uint64_t last_line_start = 0;          // offset after the last '\n'
  std::vector<uint64_t> checkpoints{0};  // start of line k * checkpoint_every
  char last_byte = 0;                    // byte at indexed - 1, to notice rewrites
  std::vector<char> buf;                 // read buffer (index and line reads)
  uint64_t buf_off = 0;                  // file offset of buf[0]
  size_t buf_len = 0;                    // valid bytes in buf
  std::vector<char> search_buf;          // search window
  ReadLines last_read;                   // kept until the index is cleared: lines never change
};

/// Reads up to n bytes at off (fewer only at end of file).
Result<size_t> pread_full(int fd, char* out, size_t n, uint64_t off);

/// Makes s.buf hold the bytes at pos (a chunk starting there unless already held); returns a
/// pointer to pos and sets `avail` to the bytes available from it, bounded by s.indexed.
Result<const char*> buffer_at(LogFileState& s, uint64_t pos, size_t& avail);

}  // namespace trainyard
