// Entities as the Batch REST API shapes them, for `ls --json`.
#pragma once

#include <nlohmann/json.hpp>

#include "core/entities.hpp"

namespace trainyard {

/// CloudTask JSON (wire names, lowercase enums, UTC times with 7 digits).
nlohmann::json task_to_wire(const Task& t);
/// CloudJob JSON.
nlohmann::json job_to_wire(const Job& j);
/// CloudPool JSON.
nlohmann::json pool_to_wire(const Pool& p);
/// ComputeNode JSON.
nlohmann::json node_to_wire(const Node& n);
/// An account as `trainyard ls accounts --json` lists it.
nlohmann::json account_to_wire(const Account& a);

}  // namespace trainyard
