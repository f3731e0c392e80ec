// The test's own control endpoint: faults, counters and preempting a node.
#include "service.hpp"

namespace trainyard::emu {

void Service::control(Call& c, const std::string& what) {
  if (what == "counters") return c.json(200, faults_.counters().dump());
  if (what == "reset-counters") {
    faults_.reset_counters();
    return c.empty(204);
  }
  nlohmann::json body;
  if (!c.body_object(body)) return;
  if (what == "faults") {
    auto rates = parse_faults(body.value("spec", ""));
    if (!rates)
      return c.error(400, errors::kInvalidPropertyValue.code, rates.error().message,
                     {{"PropertyName", "spec"}});
    faults_.set(*rates);
    return c.empty(204);
  }
  // preempt: {"poolId": P, "nodeId": N}
  std::unique_lock lock(account_.mu_);
  auto* n = account_.find_node(c, body.value("poolId", ""), body.value("nodeId", ""));
  if (!n) return;
  account_.preempt_node(*n);
  c.empty(202);
}

}  // namespace trainyard::emu
