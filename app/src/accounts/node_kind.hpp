// How a node is paid for, as tables show it.
#pragma once

#include <string>

#include "core/entities.hpp"

namespace trainyard {

/// `dedicated`, or `spot` for Batch's low-priority (Spot) nodes.
inline std::string node_kind(const Node& n) {
  return n.is_dedicated ? "dedicated" : "spot";
}

}  // namespace trainyard
