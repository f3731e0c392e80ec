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

}  // namespace trainyard
