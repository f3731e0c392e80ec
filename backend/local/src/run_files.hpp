// Internal: the files a local run is started from, shared by submit and reactivate.
#pragma once

#include <string>
#include <vector>

namespace trainyard {

/// `env` (NAME=value entries) less secrets, as the NUL-separated blob of the `environment` file.
std::string environment_blob(const std::vector<std::string>& env,
                             const std::vector<std::string>& secrets);

}  // namespace trainyard
