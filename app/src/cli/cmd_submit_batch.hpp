// Internal: `submit --account A` to a Batch (or emulator) account.
#pragma once

#include <string>
#include <vector>

#include "batch_submit.hpp"
#include "commands.hpp"

namespace trainyard {

/// Creates each job (with `submittedBy`) and adds its tasks, 100 per request; prints one line
/// per job. Nothing is sent when any body cannot be built. With `upload.dir`, the folder is sent
/// to storage first and every task gets its files (task_inputs.hpp).
int submit_to_batch(const CliState& st, const std::string& account,
                    const std::vector<spec::JobSpec>& specs, const UploadFlags& upload = {});

}  // namespace trainyard
