// libFuzzer: config.json through parse_settings. A refusal is one line naming the file; what is
// accepted has budgets of positive, finite amounts only.
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string>

#include "app/settings.hpp"

using namespace trainyard;

namespace {

bool positive(double v) {
  return std::isfinite(v) && v > 0;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string text(reinterpret_cast<const char*>(data), size);
  auto s = parse_settings(text, "fuzz.json");
  if (!s) {
    const auto& m = s.error().message;
    if (m.rfind("fuzz.json", 0) != 0 || m.find('\n') != std::string::npos) std::abort();
    return 0;
  }
  for (const auto& [account, budget] : s->budgets) {
    if (budget.total && !positive(*budget.total)) std::abort();
    for (const auto& [job, amount] : budget.jobs)
      if (!positive(amount)) std::abort();
  }
  return 0;
}
