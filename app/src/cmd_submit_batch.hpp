// Internal: `submit --account A` to a Batch (or emulator) account.
#pragma once

#include <string>
#include <vector>

#include "commands.hpp"
#include "spec/spec_model.hpp"

namespace trainyard {

/// Creates each job (with `submittedBy`) and adds its tasks, 100 per request; prints one line
/// per job. Nothing is sent when any body cannot be built.
int submit_to_batch(const CliState& st, const std::string& account,
                    const std::vector<spec::JobSpec>& specs);

}  // namespace trainyard
