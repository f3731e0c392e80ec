#include "account_lookup.hpp"

#include <fmt/format.h>

namespace trainyard {

std::vector<azure::AccountConfig> known_accounts(const Settings& settings,
                                                 std::vector<std::string>& notes) {
  std::vector<azure::AccountConfig> others;
  if (auto env = azure::account_from_environment(azure::environment_map())) others.push_back(*env);
  return azure::merge_accounts(settings.accounts, others, notes);
}

Result<azure::AccountConfig> find_account(const Settings& settings, const std::string& name) {
  std::vector<std::string> notes;
  auto accounts = known_accounts(settings, notes);
  std::string names = "local";
  for (const auto& a : accounts) {
    if (a.name == name) return a;
    names += ", " + a.name;
  }
  return make_error(ErrorKind::Usage, fmt::format("unknown account '{}' (known: {})", name, names));
}

Result<std::unique_ptr<azure::BatchClient>> open_batch_client(const azure::AccountConfig& account,
                                                              const Clock& clock) {
  auto http = std::make_shared<azure::HttpClient>(azure::TlsOptions{account.cacert});
  auto credential = azure::make_credential(account, azure::environment_map(), http);
  if (!credential) return credential.error();
  azure::BatchClientOptions options;
  options.account = account.name;
  options.endpoint = account.endpoint;
  return std::make_unique<azure::BatchClient>(options, http, std::move(*credential), clock);
}

}  // namespace trainyard
