// The connect action: where to log in, and a temporary user there with the user's SSH key.
#include "connect_action.hpp"

#include <fmt/format.h>

namespace trainyard::act {

BatchAction connect_node(std::string pool, std::string node, azure::NodeUser user,
                         std::shared_ptr<azure::RemoteLogin> at) {
  return {"add user " + user.name + " to node " + node, ActionKind::Change,
          [pool, node, user, at](ActionEnv& env) -> Result<ActionOutcome> {
            auto login = azure::remote_login_settings(env.client, pool, node);
            if (!login) return login.error();
            TY_TRY(azure::add_node_user(env.client, pool, node, user));
            *at = *login;
            return ActionOutcome{fmt::format("user {} may log in to node {}/{} until {} (ssh -p "
                                             "{} {}@{})",
                                             user.name, pool, node, format_iso8601(user.expiry),
                                             login->port, user.name, login->ip),
                                 {}};
          }};
}

}  // namespace trainyard::act
