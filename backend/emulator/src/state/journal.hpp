// `--state FILE`'s journal (`FILE.journal`): every change a client was told succeeded, made
// durable before the answer goes out, so a `kill -9` between two snapshots loses none of them.
#pragma once

#include <cstdint>
#include <deque>
#include <mutex>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "model.hpp"

namespace trainyard::emu {

/// One acknowledged change, as the client asked for it: replayed over the snapshot at start.
struct JournalEntry {
  uint64_t seq = 0;  ///< 1, 2, … in the order the changes were made
  Micros at = 0;     ///< when it was made
  std::string method;
  std::string target;  ///< path and query as received
  std::string body;
};

/// An append-only file of JSON lines. Appends are synced before they return; entries a
/// snapshot holds are dropped by rewriting the rest to a new file and renaming it over.
class Journal {
 public:
  /// Reads every complete entry of `path` (none when it does not exist). A last line cut short
  /// (a crash during its append, never acknowledged) is ignored; any other bad line is an error
  /// naming the file and line.
  static Result<std::vector<JournalEntry>> read(const std::string& path);
  /// The entries of a journal's text, as `read` takes them; errors name `path` and the line.
  static Result<std::vector<JournalEntry>> parse(const std::string& text, const std::string& path);

  /// Opens `path` for appending; `entries` are what it holds, numbering goes on after `last_seq`.
  Result<void> open(const std::string& path, std::vector<JournalEntry> entries, uint64_t last_seq);
  /// False before `open`, and after an append that could neither finish nor be taken back.
  bool is_open() const;
  /// Numbers, appends and syncs `e`; false when it could not be made durable.
  bool append(JournalEntry e);
  /// The number of the last entry appended (0 before any).
  uint64_t last_seq() const;
  /// Whether the file holds entries, i.e. a snapshot would let it drop some.
  bool has_entries() const;
  /// Drops the entries numbered `seq` and below (a snapshot now holds them).
  void drop_through(uint64_t seq);
  ~Journal();

 private:
  mutable std::mutex mu_;
  std::string path_;
  int fd_ = -1;
  uint64_t last_seq_ = 0;
  std::deque<std::pair<uint64_t, std::string>> lines_;  ///< what the file holds, in order
};

/// The JSON line of an entry (with its newline).
std::string journal_line(const JournalEntry& e);

}  // namespace trainyard::emu
