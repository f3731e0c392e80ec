// Internal: the Tasks pane's filter and sort as far as the store can answer them (a job may hold
// 100,000 tasks): state, exit code and text terms become bound conditions, the sort a whitelisted
// column; the terms left over are matched in memory.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "row_filter.hpp"
#include "store/store.hpp"

namespace trainyard {

/// The store's order for the Tasks pane's column `id`; nullopt: the store cannot sort by it.
std::optional<TaskOrder> task_order_for(const std::string& id);

/// Adds to `q` each term of `f` the store can answer and returns the others; a `field:` term
/// whose field is none of `fields` is plain text (row_filter.hpp).
std::vector<FilterTerm> add_task_conditions(const RowFilter& f, TaskQuery& q,
                                            const std::vector<std::string>& fields);

}  // namespace trainyard
