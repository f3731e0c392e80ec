// Internal: the GPU indices of a run as stored in LocalRun::gpu_ids ("0,2").
#pragma once

#include <sstream>
#include <string>
#include <vector>

namespace trainyard {

/// "0,2" from {0, 2}.
inline std::string format_gpu_ids(const std::vector<int>& ids) {
  std::string out;
  for (int id : ids) out += (out.empty() ? "" : ",") + std::to_string(id);
  return out;
}

/// {0, 2} from "0,2"; empty parts are skipped.
inline std::vector<int> parse_gpu_ids(const std::string& csv) {
  std::vector<int> out;
  std::stringstream ss(csv);
  for (std::string part; std::getline(ss, part, ',');) {
    if (!part.empty()) out.push_back(std::stoi(part));
  }
  return out;
}

}  // namespace trainyard
