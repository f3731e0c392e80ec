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

/// How the sections flow into an area.
struct HelpLayout {
  std::size_t lines = 0;     ///< headings, binding lines (wrapped) and the blanks between sections
  std::size_t per_page = 0;  ///< lines one screen shows (its columns times their height)
};

/// The layout render_help() draws into `area`.
HelpLayout help_layout(const HelpVm& vm, Rect area);

/// Draws a box over `area` (one cell margin) with the sections from line `first` flowed top to
/// bottom, then into further columns. A description wider than its column (40 cells, or what one
/// column leaves) wraps under itself; what does not fit the box is marked with `…`, and lines
/// scrolled past with `↑`.
void render_help(const HelpVm& vm, Canvas& canvas, Rect area);

}  // namespace trainyard
