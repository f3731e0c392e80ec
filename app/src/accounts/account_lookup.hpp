// Finding a Batch account by name and opening a client for it.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/settings.hpp"
#include "azure/accounts.hpp"
#include "azure/batch_client.hpp"
#include "azure/discovery.hpp"
#include "core/time.hpp"

namespace trainyard {

/// Where `accounts discover` caches what it found: in settings.data_dir, else the default one.
std::string discovery_cache_file(const Settings& settings);

/// Config accounts, then the `az batch` environment's, then the cached discovered ones (unless
/// `discovery.enabled` is false); clashes are noted in `notes`, config winning.
std::vector<azure::AccountConfig> known_accounts(const Settings& settings,
                                                 std::vector<std::string>& notes);

/// When AZURE_BATCH_ACCOUNT names an account config.json also defines: the one line saying
/// which wins (config.json) and that the AZURE_BATCH_* variables are ignored; else nothing.
std::optional<std::string> environment_account_clash(const Settings& settings);

/// The account called `name`; a Usage error listing the known ones otherwise.
Result<azure::AccountConfig> find_account(const Settings& settings, const std::string& name);

/// A client for the account, with its credential built now (secrets resolved here).
Result<std::unique_ptr<azure::BatchClient>> open_batch_client(const azure::AccountConfig& account,
                                                              const Clock& clock);

}  // namespace trainyard
