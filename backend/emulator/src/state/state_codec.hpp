// The `--state` snapshot's entities as JSON, and back; reading checks every field
// (state_fields.hpp).
#pragma once

#include <nlohmann/json.hpp>

#include "model.hpp"
#include "state_fields.hpp"

namespace trainyard::emu {

nlohmann::json pool_json(const PoolEntity& p);
/// Throws StateFieldError naming the place of a field it cannot take.
PoolEntity pool_from(const Fields& f);
nlohmann::json node_json(const NodeEntity& n);
/// Throws StateFieldError naming the place of a field it cannot take.
NodeEntity node_from(const Fields& f);
nlohmann::json job_json(const JobEntity& j);
/// Throws StateFieldError naming the place of a field it cannot take.
JobEntity job_from(const Fields& f);

}  // namespace trainyard::emu
