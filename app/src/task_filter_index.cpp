// A filter over a job's tasks in memory: the substring is found with memmem over all the text
// at once (sparse patterns skip most rows), each hit's row tested against the rest.
#include "task_filter_index.hpp"

#include <algorithm>
#include <cstring>

namespace trainyard {
namespace {

constexpr uint8_t kFailed = 1, kHasExit = 2, kFailureCode = 4;

char ascii_lower(char c) {
  return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

std::string lowered(const std::string& s) {
  std::string out(s);
  for (char& c : out) c = ascii_lower(c);
  return out;
}

bool is_ascii(const std::string& s) {
  return std::all_of(s.begin(), s.end(),
                     [](char c) { return static_cast<unsigned char>(c) < 0x80 && c != '\0'; });
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
  ids_.push_back(t.id);
  rank_.push_back(static_cast<int8_t>(t.state_rank));
  flags_.push_back(static_cast<uint8_t>((t.failed ? kFailed : 0) | (t.exit_code ? kHasExit : 0) |
                                        (t.failure_code ? kFailureCode : 0)));
  exit_.push_back(t.exit_code.value_or(0));
}

bool TaskFilterIndex::answers(const TaskQuery& q) {
  if (!is_ascii(q.substring)) return false;
  return std::all_of(q.conditions.begin(), q.conditions.end(), [](const TaskCondition& c) {
    return c.field != TaskCondition::Field::Text || is_ascii(c.text);
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

bool TaskFilterIndex::lists(const TaskQuery& q) {
  return answers(q) && q.order == TaskOrder::Display;
}

template <typename Each>
void TaskFilterIndex::each_match(const TaskQuery& query, Each each) const {
  TaskQuery q = query;
  for (auto& c : q.conditions)
    if (c.field == TaskCondition::Field::Text) c.text = lowered(c.text);
  if (q.substring.empty()) {
    for (size_t row = 0; row < rank_.size(); ++row)
      if (passes(row, q)) each(row);
    return;
  }
  auto needle = lowered(q.substring);
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

std::vector<uint32_t> TaskFilterIndex::matching_rows(const TaskQuery& q) const {
  std::vector<uint32_t> rows;
  each_match(q, [&](size_t row) { rows.push_back(static_cast<uint32_t>(row)); });
  return rows;
}

}  // namespace trainyard
