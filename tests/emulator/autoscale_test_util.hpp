// Helpers shared by the autoscale evaluator's tests.
#pragma once

#include <string_view>

#include "emulator/autoscale.hpp"

namespace trainyard::emu::autoscale_test {

/// Inputs with `pending` active tasks and the pool's dedicated target.
inline AutoscaleInputs inputs(int pending = 0, int target = 0) {
  AutoscaleInputs in;
  in.pending_tasks = pending;
  in.active_tasks = pending;
  in.target_dedicated = target;
  return in;
}

inline AutoscaleOutcome eval(std::string_view formula, const AutoscaleInputs& in = {}) {
  return evaluate_autoscale(formula, in);
}

}  // namespace trainyard::emu::autoscale_test
