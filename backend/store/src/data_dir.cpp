#include <cstdlib>
#include <string>

#include "store/store.hpp"

namespace trainyard {
namespace {

std::string env_or_empty(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

}  // namespace

std::string resolve_data_dir(const std::string& flag) {
  if (!flag.empty()) return flag;
  if (auto dir = env_or_empty("TRAINYARD_DATA_DIR"); !dir.empty()) return dir;
  if (auto xdg = env_or_empty("XDG_DATA_HOME"); !xdg.empty()) return xdg + "/trainyard";
  auto home = env_or_empty("HOME");
  return (home.empty() ? std::string(".") : home) + "/.local/share/trainyard";
}

}  // namespace trainyard
