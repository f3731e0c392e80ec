// Internal: a browser-like history of where the user has been (each entry a whole crumbs
// stack), beside the stack itself: `[` goes back to the stack shown before, `]` forward again.
#pragma once

#include <cstddef>
#include <vector>

#include "tui_pane.hpp"

namespace trainyard {

/// The stacks shown before the current one, and those that going back left.
struct NavHistory {
  std::vector<std::vector<Frame>> back;     ///< oldest first
  std::vector<std::vector<Frame>> forward;  ///< the next one last
  static constexpr std::size_t kLimit = 100;
};

/// True when `a` and `b` show the same panes of the same things (cursors aside).
bool same_place(const std::vector<Frame>& a, const std::vector<Frame>& b);

/// Records a move from `before` to `after` (nothing when they show the same place): `before`
/// goes on the back list, and the forward list is dropped, as a browser does.
void record_move(NavHistory& h, std::vector<Frame> before, const std::vector<Frame>& after);

/// Swaps `current` for the last stack of the back list (which then holds `current` in the
/// forward list); false when there is nothing to go back to.
bool history_back(NavHistory& h, std::vector<Frame>& current);

/// The reverse of history_back; false when nothing lies ahead.
bool history_forward(NavHistory& h, std::vector<Frame>& current);

}  // namespace trainyard
