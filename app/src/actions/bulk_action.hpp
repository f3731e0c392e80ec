// Internal: one action over several rows (the TUI's marked rows): each row's action runs in
// turn on the same worker, and one outcome line says how many worked and how many failed.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "batch_action.hpp"
#include "local_action.hpp"

namespace trainyard::act {

/// `stop 3 tasks: 3 done`; with failures `stop 3 tasks: 1 done, 2 failed (t2: gone; t3: gone)`.
std::string bulk_text(const std::string& what, size_t done,
                      const std::vector<std::string>& failures);

/// Runs each `(row, action)` in turn as one action named `what`; it fails (with bulk_text) when
/// any row's action failed, after every row was tried. A change when any of them is.
BatchAction for_each_row(std::string what,
                         std::vector<std::pair<std::string, BatchAction>> actions);
/// The same for actions on local runs.
LocalAction for_each_run(std::string what,
                         std::vector<std::pair<std::string, LocalAction>> actions);

}  // namespace trainyard::act
