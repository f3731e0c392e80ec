// The compute node operations: list, get, reboot, reimage, scheduling, remote login settings.
#pragma once

#include <string>

#include "account.hpp"
#include "paging.hpp"

namespace trainyard::emu {

/// Handlers of `/pools/{pool}/nodes`.
class NodeApi {
 public:
  explicit NodeApi(Account& account) : account_(account) {}

  void list_nodes(Call& c, const std::string& pool);
  void get_node(Call& c, const std::string& pool, const std::string& node);
  void node_action(Call& c, const std::string& pool, const std::string& node,
                   const std::string& action);

 private:
  std::string render_node(const NodeEntity& n, const Select& s) const;

  Account& account_;
};

}  // namespace trainyard::emu
