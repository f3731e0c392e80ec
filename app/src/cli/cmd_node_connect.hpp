// Internal: `trainyard node connect`, registered under `node`.
#pragma once

#include <CLI/CLI.hpp>

#include "commands.hpp"

namespace trainyard {

/// Adds `connect` to the `node` subcommand.
void register_node_connect(CLI::App* node, CliState& st);

}  // namespace trainyard
