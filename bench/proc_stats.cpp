#include "proc_stats.hpp"

#include <fstream>
#include <sstream>

namespace trainyard::bench {

double status_mib(const std::string& field) {
  std::ifstream in("/proc/self/status");
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(field + ":", 0) != 0) continue;
    std::istringstream s(line.substr(field.size() + 1));
    double kb = 0;
    s >> kb;
    return kb / 1024.0;
  }
  return -1;
}

}  // namespace trainyard::bench
