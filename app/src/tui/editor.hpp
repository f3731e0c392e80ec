// Internal: running the user's editor on a file.
#pragma once

#include <string>
#include <vector>

#include "core/result.hpp"

namespace trainyard {

/// Runs `$EDITOR FILE` (else `$VISUAL`, else `vi`) through /bin/sh, so an editor given with
/// arguments (`code -w`) works, with `env` as its environment, and waits for it. An error when
/// it cannot start or exits non-zero.
Result<void> run_editor(const std::string& path, const std::vector<std::string>& env);

}  // namespace trainyard
