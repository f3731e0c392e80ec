// Entra ID's token endpoint, IMDS and the management plane's account listing and keys.
#pragma once

#include <string>

#include "account.hpp"

namespace trainyard::emu {

/// Handlers of the token, IMDS and ARM endpoints (served only with `--identity`).
class IdentityApi {
 public:
  explicit IdentityApi(Account& account) : account_(account) {}

  void token_endpoint(Call& c);
  void imds_endpoint(Call& c);
  void arm_list_accounts(Call& c);
  void arm_list_keys(Call& c);

 private:
  std::string issue_token(const std::string& audience);

  Account& account_;
};

}  // namespace trainyard::emu
