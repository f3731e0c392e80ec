// Internal: the time beside each line of a log, from the store's read marks.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <vector>

#include "store/store.hpp"

namespace trainyard {

/// How long after a task ended its log may still be read and the read dated its lines: the
/// poller reads the log on screen every 1.5 s, the supervisor at the attempt's end; a read
/// later than this (a log fetched long after) dates the fetch, not the lines.
inline constexpr std::chrono::seconds kLateReadGrace{10};

/// When each line was first read: the time of the first mark ending past the line's start
/// (`starts` and `marks` both by offset). None where no mark does yet, or where that mark came
/// more than kLateReadGrace after `ended`.
std::vector<std::optional<Timestamp>> line_times(const std::vector<uint64_t>& starts,
                                                 const std::vector<LogMark>& marks,
                                                 std::optional<Timestamp> ended);

/// `HH:MM:SS` (UTC) for a line's time, `--:--:--` where it is not known.
std::string line_time_text(const std::optional<Timestamp>& t);

}  // namespace trainyard
