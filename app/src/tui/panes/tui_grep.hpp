// Internal: `:grep PATTERN` over the stdout and stderr of every task of a job (tui_grep.cpp,
// tui_pane_grep.cpp).
#pragma once

#include <string>

#include "log_grep.hpp"
#include "tui_state.hpp"

namespace trainyard {

/// Most matching lines one grep lists (over all of a job's logs).
inline constexpr size_t kGrepMaxHits = 2000;

/// One matching line of a task's log.
struct GrepHit {
  std::string task;
  bool stderr_stream = false;
  size_t line = 0;  ///< 0-based
  std::string text;
  /// The attempt whose log holds the line: N of `stdout.attempt-N.txt` for an earlier attempt of
  /// a local run (earlier set), else the latest attempt's number (its stdout.txt).
  int attempt = 0;
  bool earlier = false;
};

/// What a grep found beyond its rows: how many logs it read and how many it could not.
struct GrepSummary : PaneData {
  std::string error;        ///< the pattern's, when it does not parse
  size_t logs_read = 0;     ///< files searched
  size_t logs_missing = 0;  ///< Batch tasks' logs with no cache copy (yet)
  size_t hits = 0;
  bool capped = false;  ///< stopped at kGrepMaxHits
};

/// A local run's log file, or a Batch task's cache copy (tui_logs.cpp).
std::string log_path(AppContext& ctx, const Frame& f, bool stderr_stream);

/// `:grep PATTERN` on the Jobs (the selected job) or Tasks pane: opens the Grep pane.
void grep_command(AppContext& ctx, TuiState& st, const std::string& pattern);
/// The row key of a hit, and the hit a key names (task, stream, attempt and line).
std::string grep_hit_key(const GrepHit& h);
std::optional<GrepHit> parse_grep_hit_key(const std::string& key);
/// Opens the selected hit's log at its line, the match highlighted.
void open_grep_hit(AppContext& ctx, TuiState& st);

}  // namespace trainyard
