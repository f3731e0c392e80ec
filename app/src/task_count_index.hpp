// Internal: a job's tasks in memory for counting the Tasks pane's filter, so a keystroke over
// 100,000 tasks counts its matches without a pass over the table (the page itself still comes
// from the store, in the store's order).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.hpp"
#include "store/store.hpp"

namespace trainyard {

/// Each task's searchable text (id, displayName, commandLine; ASCII lower case) and the
/// values TaskQuery's conditions test, for one job.
class TaskCountIndex {
 public:
  /// Reads the tasks of `job` (one statement).
  static Result<TaskCountIndex> read(Store& store, const std::string& account,
                                     const std::string& job);
  /// True when count() answers `q` as Store::count_tasks would: its text is ASCII (the store
  /// folds only ASCII case alike in its two plans).
  static bool answers(const TaskQuery& q);
  /// How many of the job's tasks match `q`'s state, substring and conditions.
  int64_t count(const TaskQuery& q) const;
  /// How many tasks the index holds.
  size_t size() const { return rank_.size(); }

 private:
  void add(const TaskSummary& t);
  bool passes(size_t row, const TaskQuery& q) const;
  bool holds(size_t row, const TaskCondition& c) const;
  bool row_contains(size_t row, const std::string& lowered_needle) const;
  /// The row whose text holds byte `offset`.
  size_t row_at(size_t offset) const;

  std::string text_;            ///< each task's "id\0name\0command\0", lower-cased
  std::vector<size_t> starts_;  ///< where each task's text starts, then the end
  std::vector<int8_t> rank_;    ///< state rank
  std::vector<uint8_t> flags_;  ///< kFailed, kHasExit, kFailureCode
  std::vector<int64_t> exit_;   ///< exit code where kHasExit
};

}  // namespace trainyard
