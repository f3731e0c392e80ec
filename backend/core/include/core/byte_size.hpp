// Sizes as people read them.
#pragma once

#include <cstdint>
#include <string>

namespace trainyard {

/// `1.5 MiB`: binary units, one decimal from KiB up; `512 B` below.
std::string human_size(uint64_t bytes);

}  // namespace trainyard
