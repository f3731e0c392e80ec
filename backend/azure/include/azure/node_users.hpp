// Remote login accounts on a Batch node (`…/nodes/{node}/users`): SSH keys, never passwords.
#pragma once

#include <string>

#include "azure/batch_client.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

/// A remote login account on a node: SSH only (no password), until its expiry.
struct NodeUser {
  std::string name;
  std::string ssh_public_key;  ///< OpenSSH text: `ssh-ed25519 AAAA… comment`
  Timestamp expiry;
};

/// `POST …/nodes/{node}/users`; when the name is taken (NodeUserExists), `PUT …/users/{name}`
/// gives that account this key and expiry instead.
Result<void> add_node_user(BatchClient& client, const std::string& pool, const std::string& node,
                           const NodeUser& user);

/// `DELETE …/nodes/{node}/users/{name}`.
Result<void> delete_node_user(BatchClient& client, const std::string& pool, const std::string& node,
                              const std::string& name);

}  // namespace trainyard::azure
