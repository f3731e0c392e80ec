// Turns a task's stdout into metric points in the store, as the bytes arrive.
#pragma once

#include <cstdint>
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

/// Follows one log file of one task: reads from the offset recorded in the store, splits records
/// on `\n` and `\r` (so every tqdm/Keras progress record counts), sanitizes each, parses metrics,
/// and stores the points and the new offset in one transaction.
class LogMetricsFollower {
 public:
  /// `file` is the name the offset is kept under (`stdout.txt`); `path` is where to read it.
  LogMetricsFollower(Store& store, std::string account, std::string job, std::string task,
                     std::string file, std::string path);

  /// Adds user patterns; fails on a bad regex, naming the pattern.
  Result<void> add_patterns(const std::vector<MetricPattern>& patterns);

  /// Reads what is new. With `final_pass`, a last record without a line end is parsed too.
  /// Returns how many points were stored.
  Result<size_t> poll(bool final_pass = false);

 private:
  Result<void> load_offset();
  std::vector<MetricPoint> parse_records(std::string_view bytes);

  Store& store_;
  std::string account_, job_, task_, file_, path_;
  MetricParser parser_;
  int64_t offset_ = 0;
  int64_t records_ = 0;  ///< x position for points whose log gives no step
  bool loaded_ = false;
};

}  // namespace trainyard
