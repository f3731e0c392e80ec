// Runs a user's secret command (`keyCommand`: a password manager) and returns what it prints.
#pragma once

#include <map>
#include <string>

#include "core/result.hpp"

namespace trainyard::azure {

/// Runs `command` with /bin/sh -c (no stdin, 30 s limit), returns stdout without the trailing
/// newline. Errors name the account and the exit status, never the output.
Result<std::string> run_secret_command(const std::string& command, const std::string& account);

/// The secret from the first source given: `inline_value`, then `$env_name` (from `env`), then
/// `command`. Errors name the account and the variable, never a value.
Result<std::string> resolve_secret(const std::string& inline_value, const std::string& env_name,
                                   const std::string& command,
                                   const std::map<std::string, std::string>& env,
                                   const std::string& account);

}  // namespace trainyard::azure
