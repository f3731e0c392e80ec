// Internal: the one wording of a config.json error, shared by the files that read its sections.
#pragma once

#include <string>

#include "core/result.hpp"

namespace trainyard {

/// A Parse error reading `SOURCE: WHERE: WHAT` (the file, the place in it, what is wrong).
Error settings_error(const std::string& source, const std::string& where, const std::string& what);

}  // namespace trainyard
