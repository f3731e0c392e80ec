#include "core/entities.hpp"

namespace trainyard {

const char* to_string(AccountKind kind) {
  switch (kind) {
    case AccountKind::Local:
      return "local";
    case AccountKind::Batch:
      return "batch";
    case AccountKind::Emulator:
      return "emulator";
  }
  return "local";
}

std::string slots_text(const Task& t) {
  if (!t.multi_instance) return std::to_string(t.required_slots);
  return std::to_string(t.multi_instance->number_of_instances) + "x" +
         std::to_string(t.required_slots);
}

}  // namespace trainyard
