// Internal: saving a log the TUI shows to a file of the user's choosing.
#pragma once

#include <filesystem>
#include <string>

#include "core/result.hpp"

namespace trainyard {

/// Copies the log at `source` byte for byte to `dest` (relative to the working directory),
/// through a temporary file beside it that is renamed into place, so `dest` is either whole or
/// untouched. An existing `dest` is kept (a Conflict error) unless `overwrite`. Returns the
/// absolute path written.
Result<std::filesystem::path> save_log_copy(const std::string& source, const std::string& dest,
                                            bool overwrite);

}  // namespace trainyard
