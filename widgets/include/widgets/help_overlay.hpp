// The help overlay: key bindings grouped by context (generated from the keymap data).
#pragma once

#include <string>
#include <vector>

#include "widgets/canvas.hpp"

namespace trainyard {

/// One binding.
struct HelpEntry {
  std::string key;          ///< key name (`C-c`, `Enter`)
  std::string description;  ///< what it does
  std::string name;         ///< the action's name (`stop`), shown between them; empty: none
};

/// Bindings of one context (`global`, `tasks`, `logs`).
struct HelpSection {
  std::string context;             ///< heading
  std::vector<HelpEntry> entries;  ///< bindings
};

/// What the overlay shows.
struct HelpVm {
  std::string title = "Help";         ///< box title
  std::vector<HelpSection> sections;  ///< sections, flowed into columns
  std::size_t first = 0;              ///< lines scrolled past (headings and blanks count)
};

/// The lines the sections flow into (headings, bindings and the blanks between sections).
std::size_t help_line_count(const HelpVm& vm);

/// Draws a box over `area` (one cell margin) with the sections from line `first` flowed top to
/// bottom, then into further columns; what does not fit is cut and marked with `…`, and lines
/// scrolled past are marked with `↑`.
void render_help(const HelpVm& vm, Canvas& canvas, Rect area);

}  // namespace trainyard
