#include "azure/node_users.hpp"

#include <nlohmann/json.hpp>

#include "batch_actions_internal.hpp"

namespace trainyard::azure {

using detail::Action;
using detail::done;
using detail::path;
using detail::send_action;
using nlohmann::json;

Result<void> add_node_user(BatchClient& client, const std::string& pool, const std::string& node,
                           const NodeUser& user) {
  json body{{"sshPublicKey", user.ssh_public_key}, {"expiryTime", format_iso8601(user.expiry)}};
  json create = body;
  create["name"] = user.name;
  create["isAdmin"] = false;
  // Not resent blindly: an answer lost after the account was made reads NodeUserExists, which
  // the update below then covers.
  auto made = done(send_action(
      client, Action{"POST", path({"pools", pool, "nodes", node, "users"}), create, {}, false}));
  if (made || detail::error_code(made.error()) != "NodeUserExists") return made;
  return done(send_action(
      client, Action{"PUT", path({"pools", pool, "nodes", node, "users", user.name}), body}));
}

Result<void> delete_node_user(BatchClient& client, const std::string& pool, const std::string& node,
                              const std::string& name) {
  // A resent delete that finds the account gone was this one.
  return done(send_action(client, Action{"DELETE",
                                         path({"pools", pool, "nodes", node, "users", name}),
                                         nullptr,
                                         {},
                                         true,
                                         {"NodeUserNotFound"}}));
}

}  // namespace trainyard::azure
