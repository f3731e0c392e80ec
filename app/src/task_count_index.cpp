// Counting a filter over a job's tasks in memory: the substring is found with memmem over all
// the text at once (sparse patterns skip most rows), each hit's row tested against the rest.
#include "task_count_index.hpp"

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

Result<TaskCountIndex> TaskCountIndex::read(Store& store, const std::string& account,
                                            const std::string& job) {
  TaskCountIndex index;
  auto r = store.each_task_summary(account, job, [&](const TaskSummary& t) { index.add(t); });
  if (!r) return r.error();
  index.starts_.push_back(index.text_.size());
  index.text_.shrink_to_fit();
  return index;
}

void TaskCountIndex::add(const TaskSummary& t) {
  starts_.push_back(text_.size());
  for (const auto* part : {&t.id, &t.display_name, &t.command_line}) {
    for (char c : *part) text_ += ascii_lower(c);
    text_ += '\0';  // a match never spans two fields: no needle holds a NUL
  }
  rank_.push_back(static_cast<int8_t>(t.state_rank));
  flags_.push_back(static_cast<uint8_t>((t.failed ? kFailed : 0) | (t.exit_code ? kHasExit : 0) |
                                        (t.failure_code ? kFailureCode : 0)));
  exit_.push_back(t.exit_code.value_or(0));
}

bool TaskCountIndex::answers(const TaskQuery& q) {
  if (!is_ascii(q.substring)) return false;
  return std::all_of(q.conditions.begin(), q.conditions.end(), [](const TaskCondition& c) {
    return c.field != TaskCondition::Field::Text || is_ascii(c.text);
  });
}

size_t TaskCountIndex::row_at(size_t offset) const {
  return static_cast<size_t>(std::upper_bound(starts_.begin(), starts_.end(), offset) -
                             starts_.begin()) -
         1;
}

bool TaskCountIndex::row_contains(size_t row, const std::string& needle) const {
  const char* hay = text_.data() + starts_[row];
  size_t len = starts_[row + 1] - starts_[row];
  return needle.empty() || ::memmem(hay, len, needle.data(), needle.size()) != nullptr;
}

// As the store's SQL: a condition with no value to compare (no exit code) does not hold, and
// `negate` then includes the task.
bool TaskCountIndex::holds(size_t row, const TaskCondition& c) const {
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

bool TaskCountIndex::passes(size_t row, const TaskQuery& q) const {
  if (q.state && rank_[row] != static_cast<int>(*q.state)) return false;
  return std::all_of(q.conditions.begin(), q.conditions.end(),
                     [&](const TaskCondition& c) { return holds(row, c) != c.negate; });
}

int64_t TaskCountIndex::count(const TaskQuery& query) const {
  TaskQuery q = query;
  for (auto& c : q.conditions)
    if (c.field == TaskCondition::Field::Text) c.text = lowered(c.text);
  int64_t n = 0;
  if (q.substring.empty()) {
    for (size_t row = 0; row < rank_.size(); ++row) n += passes(row, q);
    return n;
  }
  auto needle = lowered(q.substring);
  size_t pos = 0;
  while (pos < text_.size()) {
    const void* hit =
        ::memmem(text_.data() + pos, text_.size() - pos, needle.data(), needle.size());
    if (!hit) break;
    size_t row = row_at(static_cast<size_t>(static_cast<const char*>(hit) - text_.data()));
    n += passes(row, q);
    pos = starts_[row + 1];  // a task counts once, however often it matches
  }
  return n;
}

}  // namespace trainyard
