// One-line bars: status bar, breadcrumbs, key hint bar.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "core/time.hpp"
#include "widgets/canvas.hpp"

namespace trainyard {

/// How the status message reads.
enum class StatusLevel { Info, Ok, Error };

/// What the status bar shows.
struct StatusBarVm {
  std::string message;                    ///< last message or last error (sanitized)
  StatusLevel level = StatusLevel::Info;  ///< message kind
  std::optional<Duration> data_age;       ///< age of the shown data; none: "no data"
  bool stale = false;                     ///< age drawn as StatusStale
  std::string note;                       ///< extra right-side text (`read-only`, `emulator`)
  std::string origin;          ///< the pane and action that made the message (`Tasks · stop`)
  bool message_stale = false;  ///< the user moved on or newer data came since the message
};

/// Draws `[origin] message ......  note  data 3s old` in the first row of `r`. A stale message
/// reads `[origin, earlier] message` in the dimmed StatusAge role; stale data reads
/// `data 3s old (stale)` in StatusStale.
void render_status_bar(const StatusBarVm& vm, Canvas& canvas, Rect r);

/// Breadcrumbs, outermost first: {"local", "default", "task-1"}.
struct CrumbsVm {
  std::vector<std::string> parts;  ///< crumbs
};

/// Draws `local › default › task-1`; when too wide, the leading crumbs become `…`.
void render_crumbs(const CrumbsVm& vm, Canvas& canvas, Rect r);

/// One hint: the key and what it does.
struct Hint {
  std::string key;     ///< key name (`Enter`, `C-c`, `/`)
  std::string action;  ///< action (`logs`, `filter`)
};

/// The hints, most important first.
struct HintBarVm {
  std::vector<Hint> hints;  ///< hints
};

/// Draws `<key> action  <key> action`; hints that do not fit are left out whole.
void render_hint_bar(const HintBarVm& vm, Canvas& canvas, Rect r);

}  // namespace trainyard
