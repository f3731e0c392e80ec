// Turns a task's stdout into metric points in the store, as the bytes arrive.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "store/store.hpp"
#include "sync/metric_parser.hpp"

namespace trainyard {

/// A user pattern from the configuration: metric `name` is the first capture group of `regex`.
struct MetricPattern {
  std::string name;
  std::string regex;
};

/// Where a follower learns that a new attempt of its task began.
enum class AttemptSource {
  /// The store's current_attempt(), read on every poll: a local run's supervisor raises it
  /// before the next attempt writes a byte.
  Stored,
  /// Only the file: one replaced by another, or read again from its start (a remote copy that
  /// started over), holds a new attempt. The store's attempt is where the first one starts.
  FileChanges,
};

/// Follows one log file of one task: reads from the offset recorded in the store, splits records
/// on `\n` and `\r` (so every tqdm/Keras progress record counts), sanitizes each, parses metrics
/// and parameters (metric_parser.hpp), and stores the points, parameters and the new offset in
/// one transaction. Points go to the file's stream (`stderr` for a file named so, else `stdout`)
/// and the attempt being read. Each chunk stored also leaves a read mark (Store::add_log_mark):
/// how far the file had been read, and when, which dates its lines.
class LogMetricsFollower {
 public:
  /// `file` is the name the offset is kept under (`stdout.txt`); `path` is where to read it.
  LogMetricsFollower(Store& store, std::string account, std::string job, std::string task,
                     std::string file, std::string path,
                     AttemptSource attempts = AttemptSource::Stored);

  /// Adds user patterns; fails on a bad regex, naming the pattern.
  Result<void> add_patterns(const std::vector<MetricPattern>& patterns);

  /// Reads what is new (at most a few MiB, so a burst never stalls the caller). With
  /// `final_pass`, reads to the end of the file, a last record without a line end included.
  /// Returns how many points were stored.
  Result<size_t> poll(bool final_pass = false);

  /// The attempt the points read go to.
  int attempt() const { return attempt_; }

 private:
  struct Chunk;
  Result<void> load();
  Result<void> follow_stored_attempt();
  void start_attempt(int attempt);
  Result<size_t> poll_once(bool final_pass, bool& more);
  Result<void> store_chunk(const Chunk& chunk, int64_t new_offset);
  void parse_records(std::string_view bytes, Chunk& out);

  Store& store_;
  std::string account_, job_, task_, file_, path_, stream_;
  AttemptSource attempts_;
  MetricParser parser_;
  int64_t offset_ = 0;
  int64_t records_ = 0;  ///< x position for points whose log gives no step
  int attempt_ = 0;
  bool attempt_has_points_ = false;  ///< points of attempt_ were stored
  bool restarted_ = false;           ///< the file started over since the last chunk stored
  std::optional<std::pair<uint64_t, uint64_t>> file_id_;  ///< device and inode last read
  bool loaded_ = false;
};

}  // namespace trainyard
