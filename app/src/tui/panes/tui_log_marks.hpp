// Internal: the read marks that date a log's lines (`t` in the Logs pane), read by the TUI's
// reader on its own connection and handed to the UI thread, which never queries the store.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "store/store.hpp"
#include "tui_pane.hpp"

namespace trainyard {

struct LogState;

/// A task's log file as the store keeps its read marks: `stdout.txt`, `stderr.txt`.
struct LogMarksKey {
  std::string account, job, task, file;

  bool operator==(const LogMarksKey&) const = default;
};

/// What one log view wants read: its file's marks after the last one it holds.
struct LogMarksWant {
  LogMarksKey key;
  std::optional<LogMark> last;  ///< none: all of them
};

/// The reader's input: a want for each log on screen that shows times.
struct LogMarksInput : PaneData {
  std::vector<LogMarksWant> wants;
};

/// What was read for one want.
struct LogMarksRead {
  LogMarksKey key;
  std::optional<LogMark> after;    ///< `marks` follow this one; none: they replace all
  std::vector<LogMark> marks;      ///< by offset
  std::optional<Timestamp> ended;  ///< the task's end, when it has ended
};

/// The reader's answer: one read per want.
struct LogMarksData : PaneData {
  std::vector<LogMarksRead> reads;
};

/// The want of `lg` when it shows times and its file keeps marks; none otherwise.
std::optional<LogMarksWant> log_marks_want(const LogState& lg);

/// Reads each want's newer marks. When the last mark it holds is gone (the marks were cleared
/// for a new attempt), all of the file's marks are read again to replace them. A store error
/// leaves that want unanswered.
LogMarksData read_log_marks(Store& store, const LogMarksInput& in);

/// Takes `data`'s read for `lg`'s file: appends marks that follow the last one it holds, or
/// replaces them all; a read that no longer fits (an older one) changes nothing.
void take_log_marks(LogState& lg, const LogMarksData& data);

/// The marks that can date lines starting at `starts` (by offset): from the first ending past
/// the first start to the first ending past the last.
std::vector<LogMark> marks_covering(const std::vector<LogMark>& marks,
                                    const std::vector<uint64_t>& starts);

}  // namespace trainyard
