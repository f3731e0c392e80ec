// Internal: a job's tasks in memory for the Tasks pane's filter, so a keystroke over 100,000
// tasks finds its matches (their count and the page shown) in one pass over memory; only the
// page's tasks are then read from the store, by id.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// Each task's searchable text (id, displayName, commandLine; ASCII lower case) and the
/// values TaskQuery's conditions test, for one job, in the store's display order (state,
/// creation time, id).
class TaskFilterIndex {
 public:
  /// Reads the tasks of `job` (one statement).
  static Result<TaskFilterIndex> read(Store& store, const std::string& account,
                                      const std::string& job);
  /// True when the index answers `q` as Store::count_tasks would: its text is ASCII (the store
  /// folds only ASCII case alike in its two plans).
  static bool answers(const TaskQuery& q);
  /// True when matching_rows() also gives `q`'s list in the store's order: answers(q), in the
  /// display order.
  static bool lists(const TaskQuery& q);
  /// How many of the job's tasks match `q`'s state, substring and conditions.
  int64_t count(const TaskQuery& q) const;
  /// The rows (display order) of the tasks matching `q`.
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

  std::string text_;              ///< each task's "id\0name\0command\0", lower-cased
  std::vector<size_t> starts_;    ///< where each task's text starts, then the end
  std::vector<std::string> ids_;  ///< each task's id as stored
  std::vector<int8_t> rank_;      ///< state rank
  std::vector<uint8_t> flags_;    ///< kFailed, kHasExit, kFailureCode
  std::vector<int64_t> exit_;     ///< exit code where kHasExit
};

}  // namespace trainyard
