// Store-private: the ordered (name, value) rows of one task, as task_params and
// removed_run_params keep them.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/entities.hpp"
#include "statement.hpp"

namespace trainyard::detail {

/// Replaces the rows of task `task` of `job` in `table` (columns account, job_id, task_id, ord,
/// name, value) with `params`, in order. Runs inside the caller's transaction.
Result<void> replace_param_rows(StatementCache& c, std::string_view table,
                                const std::string& account, const std::string& job,
                                const std::string& task, const std::vector<NameValue>& params);

}  // namespace trainyard::detail
