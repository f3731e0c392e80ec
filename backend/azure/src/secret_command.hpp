// Runs a user's secret command (`keyCommand`: a password manager) and returns what it prints.
#pragma once

#include <string>

#include "core/result.hpp"

namespace trainyard::azure {

/// Runs `command` with /bin/sh -c (no stdin, 30 s limit), returns stdout without the trailing
/// newline. Errors name the account and the exit status, never the output.
Result<std::string> run_secret_command(const std::string& command, const std::string& account);

}  // namespace trainyard::azure
