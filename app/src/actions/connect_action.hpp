// Internal: the catalogue's connect action, which `node connect` and the Nodes pane's key share.
#pragma once

#include <memory>
#include <string>

#include "azure/batch_actions.hpp"
#include "azure/node_users.hpp"
#include "batch_action.hpp"

namespace trainyard::act {

/// Reads where to SSH into a node (into `*at`), then adds `user` there (or renews its key and
/// expiry when it exists): what connect does before it runs ssh.
BatchAction connect_node(std::string pool, std::string node, azure::NodeUser user,
                         std::shared_ptr<azure::RemoteLogin> at);

}  // namespace trainyard::act
