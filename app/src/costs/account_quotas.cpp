#include "account_quotas.hpp"

namespace trainyard {

QuotaLookup account_quotas(const std::string& data_dir, const std::string& account) {
  QuotaLookup out;
  // The quotas only: the auth the cache would give each account is not needed.
  auto cached = azure::load_discovery_cache(azure::discovery_cache_path(data_dir), {});
  if (cached)
    for (const auto& d : *cached)
      if (d.config.name == account && d.quotas) out.quotas = d.quotas;
  out.source = out.quotas ? "quotas: the management plane, when the account was discovered"
                          : "quotas unknown: run `trainyard accounts discover` to see them";
  return out;
}

}  // namespace trainyard
