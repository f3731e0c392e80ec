// itertools.product / combinations / permutations / zip, in Python's output order.
#include "spec/sweep.hpp"

#include <algorithm>
#include <string>

namespace trainyard::spec {
namespace {

Error too_many(std::size_t limit) {
  return make_error(ErrorKind::Usage, "expands to more than " + std::to_string(limit) + " tasks");
}

PyArgs pick(const std::vector<PyValue>& pool, const std::vector<std::size_t>& idx) {
  PyArgs out;
  out.reserve(idx.size());
  for (std::size_t i : idx) out.push_back(pool[i]);
  return out;
}

// Lexicographic walk over index tuples with idx[i] >= idx[i-1] (+1 without replacement),
// which is the order CPython's combinations and combinations_with_replacement emit.
Result<std::vector<PyArgs>> walk_combinations(const std::vector<PyValue>& pool, std::size_t r,
                                              bool replacement, std::size_t limit) {
  const std::size_t n = pool.size();
  std::vector<PyArgs> out;
  std::vector<std::size_t> idx(r);
  for (std::size_t i = 0; i < r; ++i) idx[i] = replacement ? 0 : i;
  while (true) {
    if (out.size() >= limit) return too_many(limit);
    out.push_back(pick(pool, idx));
    std::size_t i = r;
    // Find the rightmost index that can still grow.
    while (i > 0 && idx[i - 1] == (replacement ? n - 1 : n - r + i - 1)) --i;
    if (i == 0) return out;
    ++idx[i - 1];
    for (std::size_t j = i; j < r; ++j) idx[j] = replacement ? idx[i - 1] : idx[j - 1] + 1;
  }
}

}  // namespace

int64_t range_length(const PyRange& r) {
  if (r.step > 0 && r.start < r.stop) return (r.stop - r.start - 1) / r.step + 1;
  if (r.step < 0 && r.start > r.stop) return (r.start - r.stop - 1) / (-r.step) + 1;
  return 0;
}

Result<std::vector<PyValue>> range_values(const PyRange& r, std::size_t limit) {
  const int64_t n = range_length(r);
  if (static_cast<uint64_t>(n) > limit) return too_many(limit);
  std::vector<PyValue> out;
  out.reserve(static_cast<std::size_t>(n));
  for (int64_t i = 0; i < n; ++i) out.emplace_back(r.start + i * r.step);
  return out;
}

Result<std::vector<PyArgs>> sweep_product(const std::vector<std::vector<PyValue>>& lists,
                                          std::size_t limit) {
  std::size_t total = 1;
  for (const auto& l : lists) {
    if (l.empty()) return std::vector<PyArgs>{};
    if (total > limit / l.size()) return too_many(limit);
    total *= l.size();
  }
  if (total > limit) return too_many(limit);
  std::vector<PyArgs> out;
  out.reserve(total);
  std::vector<std::size_t> idx(lists.size(), 0);
  for (std::size_t k = 0; k < total; ++k) {
    PyArgs args;
    args.reserve(lists.size());
    for (std::size_t i = 0; i < lists.size(); ++i) args.push_back(lists[i][idx[i]]);
    out.push_back(std::move(args));
    // Odometer: the last position turns fastest, as in nested for-loops.
    for (std::size_t i = lists.size(); i > 0; --i) {
      if (++idx[i - 1] < lists[i - 1].size()) break;
      idx[i - 1] = 0;
    }
  }
  return out;
}

Result<std::vector<PyArgs>> sweep_combinations(const std::vector<PyValue>& pool, std::size_t r,
                                               bool replacement, std::size_t limit) {
  if (!replacement && r > pool.size()) return std::vector<PyArgs>{};
  if (replacement && pool.empty() && r > 0) return std::vector<PyArgs>{};
  if (r == 0) return std::vector<PyArgs>{PyArgs{}};
  return walk_combinations(pool, r, replacement, limit);
}

Result<std::vector<PyArgs>> sweep_permutations(const std::vector<PyValue>& pool, std::size_t r,
                                               std::size_t limit) {
  if (r > pool.size()) return std::vector<PyArgs>{};
  // Permutations of r positions are, in order, the r-prefixes of the lexicographic
  // permutations of all n indices, each taken once: step past the rest by reversing the tail.
  std::vector<std::size_t> idx(pool.size());
  for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
  std::vector<PyArgs> out;
  do {
    if (out.size() >= limit) return too_many(limit);
    out.push_back(pick(pool, std::vector<std::size_t>(idx.begin(), idx.begin() + r)));
    std::reverse(idx.begin() + r, idx.end());
  } while (std::next_permutation(idx.begin(), idx.end()));
  return out;
}

std::vector<PyArgs> sweep_zip(const std::vector<std::vector<PyValue>>& lists) {
  if (lists.empty()) return {};
  std::size_t n = lists[0].size();
  for (const auto& l : lists) n = std::min(n, l.size());
  std::vector<PyArgs> out(n);
  for (std::size_t k = 0; k < n; ++k) {
    for (const auto& l : lists) out[k].push_back(l[k]);
  }
  return out;
}

}  // namespace trainyard::spec
