// Parameter sweeps as Python's itertools computes them (Batch Shipyard's `parametric_sweep`):
// each result is the argument tuple that one generated task's `command.format(*args)` gets.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/result.hpp"
#include "spec/py_format.hpp"

namespace trainyard::spec {

/// One generated task's positional arguments.
using PyArgs = std::vector<PyValue>;

/// Python's `range(start, stop, step)`.
struct PyRange {
  int64_t start = 0;  ///< first value
  int64_t stop = 0;   ///< excluded end
  int64_t step = 1;   ///< non-zero
};

/// Upper bound on the tasks a sweep may produce; beyond it expansion fails instead of eating
/// memory (Batch jobs that large are submitted with task factories on the service side).
inline constexpr std::size_t kMaxSweepTasks = 1'000'000;

/// `len(range(...))`; 0 for an empty range (step must be non-zero).
int64_t range_length(const PyRange& r);
/// `list(range(...))`; fails when longer than `limit`.
Result<std::vector<PyValue>> range_values(const PyRange& r, std::size_t limit = kMaxSweepTasks);

/// `itertools.product(*lists)`: the last list varies fastest; no lists gives one empty tuple.
Result<std::vector<PyArgs>> sweep_product(const std::vector<std::vector<PyValue>>& lists,
                                          std::size_t limit = kMaxSweepTasks);
/// `itertools.combinations(pool, r)`, or `combinations_with_replacement` when `replacement`.
Result<std::vector<PyArgs>> sweep_combinations(const std::vector<PyValue>& pool, std::size_t r,
                                               bool replacement,
                                               std::size_t limit = kMaxSweepTasks);
/// `itertools.permutations(pool, r)`.
Result<std::vector<PyArgs>> sweep_permutations(const std::vector<PyValue>& pool, std::size_t r,
                                               std::size_t limit = kMaxSweepTasks);
/// `zip(*lists)`: as many tuples as the shortest list has values.
std::vector<PyArgs> sweep_zip(const std::vector<std::vector<PyValue>>& lists);

}  // namespace trainyard::spec
