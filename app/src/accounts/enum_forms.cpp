#include "enum_forms.hpp"

#include <map>

namespace trainyard {

// At most 8 characters (the Nodes STATE column's short width); README.md lists them.
std::string short_form(std::string_view wire) {
  static const std::map<std::string_view, std::string_view> forms{
      {"preparing", "prep"},          {"running", "run"},
      {"completed", "done"},          {"rebooting", "reboot"},
      {"reimaging", "reimage"},       {"waitingforstarttask", "waiting"},
      {"starttaskfailed", "st-fail"}, {"leavingpool", "leaving"},
      {"preempted", "preempt"},       {"upgradingos", "upgrade"},
      {"deallocated", "dealloc"},     {"deallocating", "freeing"},
  };
  auto it = forms.find(wire);
  return std::string(it == forms.end() ? wire : it->second);
}

TableCell enum_cell(std::string_view wire, std::optional<Role> role) {
  return {std::string(wire), role, short_form(wire)};
}

}  // namespace trainyard
