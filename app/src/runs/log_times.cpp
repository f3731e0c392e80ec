#include "log_times.hpp"

namespace trainyard {

std::vector<std::optional<Timestamp>> line_times(const std::vector<uint64_t>& starts,
                                                 const std::vector<LogMark>& marks,
                                                 std::optional<Timestamp> ended) {
  std::vector<std::optional<Timestamp>> out;
  out.reserve(starts.size());
  size_t m = 0;
  for (uint64_t start : starts) {
    while (m < marks.size() && static_cast<uint64_t>(marks[m].end_offset) <= start) ++m;
    if (m == marks.size() || (ended && marks[m].seen_at > *ended + kLateReadGrace))
      out.emplace_back();
    else
      out.emplace_back(marks[m].seen_at);
  }
  return out;
}

std::string line_time_text(const std::optional<Timestamp>& t) {
  return t ? format_clock_utc(*t) : "--:--:--";
}

}  // namespace trainyard
