#include "tui_log_marks.hpp"

#include <algorithm>
#include <limits>

#include "tui_state.hpp"

namespace trainyard {
namespace {

// Every mark of a file at once: one per poll or supervisor read, so a day's run keeps tens of
// thousands at most.
constexpr int kAllMarks = std::numeric_limits<int>::max();

Result<std::vector<LogMark>> marks_after(Store& store, const LogMarksKey& k, int64_t after) {
  return store.log_marks(k.account, k.job, k.task, k.file, after, kAllMarks);
}

// The marks after `last`, read from `last` itself on so that its absence shows: the file's
// marks were cleared (a new attempt) and must be read again from the first.
std::optional<LogMarksRead> read_newer(Store& store, const LogMarksWant& want) {
  LogMarksRead out{want.key, want.last, {}, {}};
  int64_t from = want.last ? want.last->end_offset - 1 : -1;
  auto marks = marks_after(store, want.key, from);
  if (!marks) return std::nullopt;
  if (want.last && (marks->empty() || marks->front() != *want.last)) {
    out.after.reset();
    marks = marks_after(store, want.key, -1);
    if (!marks) return std::nullopt;
  } else if (want.last) {
    marks->erase(marks->begin());
  }
  out.marks = std::move(*marks);
  return out;
}

std::optional<Timestamp> task_end(Store& store, const LogMarksKey& k) {
  auto t = store.task(k.account, k.job, k.task);
  if (!t || !t->has_value()) return std::nullopt;
  return (*t)->execution_info.end_time;
}

}  // namespace

std::optional<LogMarksWant> log_marks_want(const LogState& lg) {
  if (!lg.times || !lg.marks_key) return std::nullopt;
  LogMarksWant want{*lg.marks_key, {}};
  if (!lg.marks.empty()) want.last = lg.marks.back();
  return want;
}

LogMarksData read_log_marks(Store& store, const LogMarksInput& in) {
  LogMarksData out;
  for (const auto& want : in.wants) {
    auto read = read_newer(store, want);
    if (!read) continue;
    read->ended = task_end(store, want.key);
    out.reads.push_back(std::move(*read));
  }
  return out;
}

void take_log_marks(LogState& lg, const LogMarksData& data) {
  for (const auto& read : data.reads) {
    if (!lg.marks_key || read.key != *lg.marks_key) continue;
    if (read.after) {
      if (lg.marks.empty() || lg.marks.back() != *read.after) continue;
      lg.marks.insert(lg.marks.end(), read.marks.begin(), read.marks.end());
    } else {
      lg.marks = read.marks;
    }
    lg.ended = read.ended;
  }
}

std::vector<LogMark> marks_covering(const std::vector<LogMark>& marks,
                                    const std::vector<uint64_t>& starts) {
  if (starts.empty()) return {};
  auto past = [&](uint64_t offset) {
    return std::upper_bound(marks.begin(), marks.end(), offset, [](uint64_t o, const LogMark& m) {
      return o < static_cast<uint64_t>(m.end_offset);
    });
  };
  auto first = past(starts.front());
  auto last = past(starts.back());
  if (last != marks.end()) ++last;
  return {first, last};
}

}  // namespace trainyard
