// Internal: a job's tasks in memory for the Tasks pane's filter, so a keystroke over 100,000
// tasks finds its matches (their count and the page shown) in one pass over memory; only the
// page's tasks are then read from the store, by id.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// Each task's searchable text (id, displayName, commandLine; ASCII lower case), the values
/// TaskQuery's conditions test and the keys of its orders, for one job, in the store's display
/// order (state, creation time, id).
class TaskFilterIndex {
 public:
  /// Reads the tasks of `job` (one statement).
  static Result<TaskFilterIndex> read(Store& store, const std::string& account,
                                      const std::string& job);
  /// True when the index answers `q` as Store::count_tasks and Store::tasks would: its text
  /// holds no NUL (both fold ASCII case only, as LIKE does).
  static bool answers(const TaskQuery& q);
  /// How many of the job's tasks match `q`'s state, substring and conditions.
  int64_t count(const TaskQuery& q) const;
  /// The rows of the tasks matching `q`, in `q`'s order as the store sorts it (limit, offset and
  /// seek aside).
  std::vector<uint32_t> matching_rows(const TaskQuery& q) const;
  /// The id of the task at `row`.
  const std::string& id(uint32_t row) const { return ids_[row]; }
  /// How many tasks the index holds.
  size_t size() const { return rank_.size(); }

 private:
  void add(const TaskSummary& t);
  bool passes(size_t row, const TaskQuery& q) const;
  bool holds(size_t row, const TaskCondition& c) const;
  bool row_contains(size_t row, const std::string& lowered_needle) const;
  /// Calls `each(row)` for every row matching `q`, in order.
  template <typename Each>
  void each_match(const TaskQuery& query, Each each) const;
  /// Every row in `order`, ascending, ties by id (sorted once per order).
  const std::vector<uint32_t>& ascending(TaskOrder order) const;
  bool less(TaskOrder order, uint32_t a, uint32_t b) const;
  /// The command line as stored.
  std::string_view command(uint32_t row) const;

  std::string text_;              ///< each task's "id\0name\0command\0", lower-cased
  std::vector<size_t> starts_;    ///< where each task's text starts, then the end
  std::vector<std::string> ids_;  ///< each task's id as stored
  std::vector<int8_t> rank_;      ///< state rank
  std::vector<uint8_t> flags_;    ///< kFailed, kHasExit, kFailureCode
  std::vector<int64_t> exit_;     ///< exit code where kHasExit
  std::vector<int64_t> retries_, requeues_, slots_;
  std::unordered_map<uint32_t, std::string> cased_commands_;  ///< where lower case changed it
  mutable std::map<TaskOrder, std::vector<uint32_t>> orders_;
};

}  // namespace trainyard
