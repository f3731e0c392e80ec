// An account's Azure region, which prices are looked up by.
#include <algorithm>
#include <cctype>
#include <vector>

#include <fmt/format.h>

#include "azure/accounts.hpp"
#include "azure/http.hpp"
#include "core/text.hpp"

namespace trainyard::azure {
namespace {

std::vector<std::string> labels_of(const std::string& host) {
  std::vector<std::string> out;
  size_t start = 0;
  for (size_t dot; (dot = host.find('.', start)) != std::string::npos; start = dot + 1)
    out.push_back(host.substr(start, dot - start));
  out.push_back(host.substr(start));
  return out;
}

// `acct.westeurope.batch.azure.com` (or a sovereign cloud's `….batch.chinacloudapi.cn`): the
// label after the account's, when the one after that is `batch`.
std::optional<std::string> region_of_host(std::string host) {
  host = ascii_lowercase(host.substr(0, host.find(':')));
  auto labels = labels_of(host);
  if (labels.size() < 4 || labels[2] != "batch" || !is_region_name(labels[1])) return std::nullopt;
  return labels[1];
}

}  // namespace

bool is_region_name(std::string_view name) {
  return !name.empty() && std::all_of(name.begin(), name.end(), [](unsigned char c) {
    return std::islower(c) || std::isdigit(c);
  });
}

Result<std::string> account_region(const AccountConfig& account) {
  if (!account.region.empty()) return account.region;
  if (auto region = region_of_host(url_host(account.endpoint))) return *region;
  return make_error(ErrorKind::Usage,
                    fmt::format("account '{}': no region: its endpoint's host ({}) does not name "
                                "one; set \"region\" on the account in config.json (e.g. "
                                "\"westeurope\")",
                                account.name, url_host(account.endpoint)));
}

}  // namespace trainyard::azure
