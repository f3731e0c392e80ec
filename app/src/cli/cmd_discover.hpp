// `trainyard accounts discover`: Batch accounts from the management plane, cached for every
// command.
#pragma once

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace trainyard {

/// Adds `discover [--json]` under `trainyard accounts`.
void register_discover(CLI::App& accounts, CliState& st);

}  // namespace trainyard
