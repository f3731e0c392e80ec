// A filter over a job's tasks in memory: the substring is found with memmem over all the text
// at once (sparse patterns skip most rows), each hit's row tested against the rest.
#include "task_filter_index.hpp"

#include <algorithm>
#include <cstring>
#include <optional>

#include "core/text.hpp"

namespace trainyard {
namespace {

constexpr uint8_t kFailed = 1, kHasExit = 2, kFailureCode = 4;

bool has_nul(const std::string& s) {
  return s.find('\0') != std::string::npos;
}

// -1, 0 or 1 as `a` sorts before, with or after `b`; std::nullopt before any value, as SQLite
// sorts NULL.
template <typename Key>
int compare_keys(const Key& a, const Key& b) {
  return a < b ? -1 : (b < a ? 1 : 0);
}

bool compare(TaskCondition::Cmp cmp, int64_t a, int64_t b) {
  using C = TaskCondition::Cmp;
  switch (cmp) {
    case C::Eq:
      return a == b;
    case C::Ne:
      return a != b;
    case C::Lt:
      return a < b;
    case C::Le:
      return a <= b;
    case C::Gt:
      return a > b;
    case C::Ge:
      return a >= b;
  }
  return false;
}

}  // namespace

Result<TaskFilterIndex> TaskFilterIndex::read(Store& store, const std::string& account,
                                              const std::string& job) {
  TaskFilterIndex index;
  auto r = store.each_task_summary(account, job, [&](const TaskSummary& t) { index.add(t); });
  if (!r) return r.error();
  index.starts_.push_back(index.text_.size());
  index.text_.shrink_to_fit();
  return index;
}

void TaskFilterIndex::add(const TaskSummary& t) {
  starts_.push_back(text_.size());
  for (const auto* part : {&t.id, &t.display_name, &t.command_line}) {
    for (char c : *part) text_ += ascii_lower(c);
    text_ += '\0';  // a match never spans two fields: no needle holds a NUL
  }
  auto row = static_cast<uint32_t>(ids_.size());
  ids_.push_back(t.id);
  if (std::any_of(t.command_line.begin(), t.command_line.end(),
                  [](char c) { return ascii_lower(c) != c; }))
    cased_commands_.emplace(row, t.command_line);
  retries_.push_back(t.retries);
  requeues_.push_back(t.requeues);
  slots_.push_back(t.slots);
  rank_.push_back(static_cast<int8_t>(t.state_rank));
  flags_.push_back(static_cast<uint8_t>((t.failed ? kFailed : 0) | (t.exit_code ? kHasExit : 0) |
                                        (t.failure_code ? kFailureCode : 0)));
  exit_.push_back(t.exit_code.value_or(0));
}

bool TaskFilterIndex::answers(const TaskQuery& q) {
  if (has_nul(q.substring)) return false;
  return std::all_of(q.conditions.begin(), q.conditions.end(), [](const TaskCondition& c) {
    return c.field != TaskCondition::Field::Text || !has_nul(c.text);
  });
}

bool TaskFilterIndex::row_contains(size_t row, const std::string& needle) const {
  const char* hay = text_.data() + starts_[row];
  size_t len = starts_[row + 1] - starts_[row];
  return needle.empty() || ::memmem(hay, len, needle.data(), needle.size()) != nullptr;
}

// As the store's SQL: a condition with no value to compare (no exit code) does not hold, and
// `negate` then includes the task.
bool TaskFilterIndex::holds(size_t row, const TaskCondition& c) const {
  using F = TaskCondition::Field;
  switch (c.field) {
    case F::StateRank:
      return compare(c.cmp, rank_[row], c.number);
    case F::Failed:
      return (flags_[row] & kFailed) != 0;
    case F::ExitCode:
      if (flags_[row] & kHasExit) return compare(c.cmp, exit_[row], c.number);
      return c.cmp == TaskCondition::Cmp::Ne && (flags_[row] & kFailureCode) != 0;
    case F::Text:
      return row_contains(row, c.text);  // lower-cased by count()
  }
  return false;
}

bool TaskFilterIndex::passes(size_t row, const TaskQuery& q) const {
  if (q.state && rank_[row] != static_cast<int>(*q.state)) return false;
  return std::all_of(q.conditions.begin(), q.conditions.end(),
                     [&](const TaskCondition& c) { return holds(row, c) != c.negate; });
}

template <typename Each>
void TaskFilterIndex::each_match(const TaskQuery& query, Each each) const {
  TaskQuery q = query;
  for (auto& c : q.conditions)
    if (c.field == TaskCondition::Field::Text) c.text = ascii_lowercase(c.text);
  if (q.substring.empty()) {
    for (size_t row = 0; row < rank_.size(); ++row)
      if (passes(row, q)) each(row);
    return;
  }
  auto needle = ascii_lowercase(q.substring);
  size_t pos = 0, row = 0;
  while (pos < text_.size()) {
    const void* hit =
        ::memmem(text_.data() + pos, text_.size() - pos, needle.data(), needle.size());
    if (!hit) break;
    // Hits come in order: the hit's row is found by walking on from the last one.
    size_t offset = static_cast<size_t>(static_cast<const char*>(hit) - text_.data());
    while (starts_[row + 1] <= offset) ++row;
    if (passes(row, q)) each(row);
    pos = starts_[row + 1];  // a task counts once, however often it matches
  }
}

int64_t TaskFilterIndex::count(const TaskQuery& q) const {
  int64_t n = 0;
  each_match(q, [&](size_t) { ++n; });
  return n;
}

// The display order is the index's own; another order walks that order's rows (sorted once)
// and keeps the matches, as `col DESC, id DESC` is `col, id` backwards (NULL last then).
std::vector<uint32_t> TaskFilterIndex::matching_rows(const TaskQuery& q) const {
  std::vector<uint32_t> rows;
  if (q.order == TaskOrder::Display) {
    each_match(q, [&](size_t row) { rows.push_back(static_cast<uint32_t>(row)); });
    return rows;
  }
  std::vector<uint8_t> hit(size(), 0);
  size_t n = 0;
  each_match(q, [&](size_t row) {
    hit[row] = 1;
    ++n;
  });
  rows.reserve(n);
  const auto& order = ascending(q.order);
  auto keep = [&](uint32_t row) {
    if (hit[row]) rows.push_back(row);
  };
  if (q.descending)
    std::for_each(order.rbegin(), order.rend(), keep);
  else
    std::for_each(order.begin(), order.end(), keep);
  return rows;
}

const std::vector<uint32_t>& TaskFilterIndex::ascending(TaskOrder order) const {
  auto it = orders_.find(order);
  if (it != orders_.end()) return it->second;
  std::vector<uint32_t> rows(size());
  for (uint32_t row = 0; row < rows.size(); ++row) rows[row] = row;
  std::sort(rows.begin(), rows.end(), [&](uint32_t a, uint32_t b) { return less(order, a, b); });
  return orders_.emplace(order, std::move(rows)).first->second;
}

bool TaskFilterIndex::less(TaskOrder order, uint32_t a, uint32_t b) const {
  auto exit_code = [&](uint32_t row) {
    return flags_[row] & kHasExit ? std::optional(exit_[row]) : std::nullopt;
  };
  int c = 0;
  switch (order) {
    case TaskOrder::Display:
    case TaskOrder::Id:
      break;
    case TaskOrder::State:
      c = compare_keys(rank_[a], rank_[b]);
      break;
    case TaskOrder::ExitCode:
      c = compare_keys(exit_code(a), exit_code(b));
      break;
    case TaskOrder::Retries:
      c = compare_keys(retries_[a], retries_[b]);
      break;
    case TaskOrder::Requeues:
      c = compare_keys(requeues_[a], requeues_[b]);
      break;
    case TaskOrder::Slots:
      c = compare_keys(slots_[a], slots_[b]);
      break;
    case TaskOrder::CommandLine:
      c = compare_keys(command(a), command(b));  // bytewise, as SQLite's BINARY collation
      break;
  }
  return c != 0 ? c < 0 : ids_[a] < ids_[b];
}

std::string_view TaskFilterIndex::command(uint32_t row) const {
  if (auto it = cased_commands_.find(row); it != cased_commands_.end()) return it->second;
  std::string_view text(text_.data() + starts_[row], starts_[row + 1] - starts_[row]);
  size_t id_end = text.find('\0');
  size_t name_end = text.find('\0', id_end + 1);
  return text.substr(name_end + 1, text.size() - name_end - 2);  // its own NUL ends it
}

}  // namespace trainyard
