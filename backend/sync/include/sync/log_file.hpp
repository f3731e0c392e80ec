// Bounded-memory reader of a (large, possibly growing) log file for the log view.
//
// Lines end at `\n`. The index keeps the byte offset of every Nth line start (N = 1024 by default),
// so memory is O(lines / N) and reading line n costs one seek plus skipping fewer than N lines.
// Every line read goes through the Sanitizer (a `\r`-rewritten progress bar shows its last state).
// A trailing line without `\n` counts as a line. Reads and searches never look past the bytes
// indexed by the last refresh(), so line numbers stay consistent between refreshes.
#pragma once

#include <cstdint>
#include <filesystem>
#include <limits>
#include <memory>
#include <optional>
#include <string_view>
#include <vector>

#include "core/result.hpp"
#include "core/sanitizer.hpp"

namespace trainyard {

struct LogFileState;

/// Knobs of a LogFile.
struct LogFileOptions {
  size_t checkpoint_every = 1024;    ///< index one line start in this many
  size_t chunk_bytes = 1 << 20;      ///< size of each read (and of the search window)
  size_t max_line_bytes = 16 << 20;  ///< raw bytes of one line sanitized at most; the rest is cut
  SanitizerOptions sanitizer;        ///< how lines are sanitized
};

/// What a refresh() found.
struct LogRefresh {
  bool reset = false;      ///< the file shrank, changed or was replaced: line numbers restarted
  uint64_t new_bytes = 0;  ///< bytes indexed by this call
  bool complete = true;    ///< the whole file is indexed (false when max_bytes stopped it)
};

/// Which way search() goes from its start line.
enum class SearchDirection { Forward, Backward };

/// A log file opened for viewing. Not thread-safe; move-only.
class LogFile {
 public:
  /// Opens the file and indexes it completely (call refresh(max_bytes) for budgeted indexing).
  static Result<LogFile> open(const std::filesystem::path& path, LogFileOptions options = {});
  /// Opens the file without indexing it yet.
  static Result<LogFile> open_lazy(const std::filesystem::path& path, LogFileOptions options = {});

  ~LogFile();
  LogFile(LogFile&&) noexcept;
  LogFile& operator=(LogFile&&) noexcept;

  /// Indexes bytes appended since the last call (at most max_bytes of them). Detects truncation,
  /// rewriting of the indexed part's last byte, and replacement of the path (log rotation):
  /// then the file is re-opened and indexed from the start.
  Result<LogRefresh> refresh(uint64_t max_bytes = std::numeric_limits<uint64_t>::max());

  /// Lines in the indexed part (a trailing partial line counts).
  size_t line_count() const;
  /// Bytes indexed.
  uint64_t indexed_bytes() const;
  /// Offsets kept by the index (for memory checks).
  size_t checkpoint_count() const;

  /// Lines [first, first + count) clipped to line_count(), each sanitized to one SanitizedLine
  /// (`split` is set when the line went past the sanitizer's cap or max_line_bytes).
  /// With `starts`, also the byte offset each returned line starts at.
  Result<std::vector<SanitizedLine>> read_lines(size_t first, size_t count,
                                                std::vector<uint64_t>* starts = nullptr);

  /// The nearest line at or after (Forward) / at or before (Backward) `from` whose sanitized text
  /// contains `needle`; nullopt when none. Raw bytes are scanned in chunks and each hit confirmed
  /// on the sanitized line, so a needle split by an escape sequence in the raw file is not found.
  /// case_insensitive folds ASCII letters only. The needle may be at most chunk_bytes / 2 long.
  Result<std::optional<size_t>> search(std::string_view needle, size_t from,
                                       SearchDirection direction, bool case_insensitive = false);

 private:
  explicit LogFile(std::unique_ptr<LogFileState> state);
  Result<uint64_t> line_start(size_t line);
  Result<bool> confirm(size_t line, std::string_view needle, bool case_insensitive);
  Result<std::optional<size_t>> search_forward(std::string_view needle, size_t from, bool ci);
  Result<std::optional<size_t>> search_backward(std::string_view needle, size_t from, bool ci);

  std::unique_ptr<LogFileState> s_;
};

}  // namespace trainyard
