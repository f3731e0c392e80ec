// The compute node operations: list, get, reboot, reimage, scheduling, remote login settings.
#pragma once

#include <map>
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
  /// `POST …/users`: a remote login account with an expiry (default a day from now).
  void add_user(Call& c, const std::string& pool, const std::string& node);
  /// `PUT …/users/{name}`: a new key, password or expiry for an account there.
  void update_user(Call& c, const std::string& pool, const std::string& node,
                   const std::string& name);
  /// `DELETE …/users/{name}`.
  void delete_user(Call& c, const std::string& pool, const std::string& node,
                   const std::string& name);

 private:
  std::string render_node(const NodeEntity& n, const Select& s) const;

  Account& account_;
  // Remote login accounts by `pool/node`, then name: their expiry. Guarded by account_.mu_.
  std::map<std::string, std::map<std::string, Micros>> users_;
};

}  // namespace trainyard::emu
