// Memory figures of this process, from /proc/self/status.
#pragma once

#include <string>

namespace trainyard::bench {

/// A `kB` field of /proc/self/status (VmRSS, VmHWM, …) in MiB; -1 when absent.
double status_mib(const std::string& field);

}  // namespace trainyard::bench
