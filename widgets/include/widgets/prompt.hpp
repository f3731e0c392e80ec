// The `:` command line and the `/` filter line at the bottom of the screen.
#pragma once

#include <string>

#include "widgets/canvas.hpp"

namespace trainyard {

/// What the command line shows.
struct CommandLineVm {
  std::string prompt = ":";  ///< prompt character(s)
  std::string text;          ///< typed text
  std::size_t cursor = 0;    ///< cursor byte offset in text
  std::string hint;          ///< completion shown dimmed after the text (e.g. the rest of a word)
  std::string candidates;    ///< other completions, right-aligned and dimmed (`pools jobs tasks`)
};

/// Draws `:text▏hint      candidates` in the first row of `r`.
void render_command_line(const CommandLineVm& vm, Canvas& canvas, Rect r);

/// What the filter line shows.
struct FilterLineVm {
  std::string text;         ///< the filter
  std::size_t cursor = 0;   ///< cursor byte offset in text
  bool editing = true;      ///< cursor shown while the user types
  std::size_t matches = 0;  ///< rows that match
};

/// Draws `/text▏        N matches` in the first row of `r` ("no matches" in the error role).
void render_filter_line(const FilterLineVm& vm, Canvas& canvas, Rect r);

}  // namespace trainyard
