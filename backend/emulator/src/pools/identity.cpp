// Entra ID token endpoint, IMDS managed identity and the management-plane account listing, all on
// the emulator's own port so every auth and discovery path of a client stays on loopback.
//
// The one service principal the token endpoint knows: any client id, with the account key as its
// secret. Managed identity answers any caller that sends `Metadata: true`, as IMDS does.
#include <openssl/rand.h>

#include <fmt/format.h>

#include "emulator/shared_key_check.hpp"
#include "identity_api.hpp"

namespace trainyard::emu {

namespace {

constexpr int kTokenSeconds = 3600;

std::string random_token() {
  unsigned char bytes[32];
  RAND_bytes(bytes, sizeof bytes);
  std::string out;
  for (unsigned char b : bytes) out += fmt::format("{:02x}", b);
  return "ty." + out;
}

void oauth_error(Call& c, const ErrorText& e) {
  c.res.status = e.status;
  c.res.set_content(nlohmann::json{{"error", e.code}, {"error_description", e.message}}.dump(),
                    "application/json");
}

// The management plane's error shape.
void arm_error(Call& c, const ErrorText& e) {
  c.res.status = e.status;
  c.res.set_content(nlohmann::json{{"error", {{"code", e.code}, {"message", e.message}}}}.dump(),
                    "application/json");
}

}  // namespace

std::string IdentityApi::issue_token(const std::string&) {
  std::string token = random_token();
  std::unique_lock lock(account_.mu_);
  account_.tokens_[token] = account_.now() + static_cast<Micros>(kTokenSeconds) * 1000000;
  return token;
}

void IdentityApi::token_endpoint(Call& c) {
  auto field = [&](const char* name) {
    return c.req.has_param(name) ? c.req.get_param_value(name) : "";
  };
  if (field("grant_type") != "client_credentials") {
    return oauth_error(c, errors::kOauthGrantType);
  }
  if (field("client_id").empty()) return oauth_error(c, errors::kOauthNoClientId);
  if (!same_secret(field("client_secret"), account_.options_.key_base64)) {
    return oauth_error(c, errors::kOauthBadSecret);
  }
  const std::string audience = field("scope").empty() ? field("resource") : field("scope");
  c.res.status = 200;
  c.res.set_content(nlohmann::json{{"token_type", "Bearer"},
                                   {"expires_in", kTokenSeconds},
                                   {"ext_expires_in", kTokenSeconds},
                                   {"access_token", issue_token(audience)}}
                        .dump(),
                    "application/json");
}

void IdentityApi::imds_endpoint(Call& c) {
  if (c.req.get_header_value("Metadata") != "true") {
    return oauth_error(c, errors::kImdsNoMetadataHeader);
  }
  const std::string resource = c.param("resource");
  if (resource.empty()) return oauth_error(c, errors::kImdsNoResource);
  const auto expires_on = account_.now() / 1000000 + kTokenSeconds;
  c.res.status = 200;
  c.res.set_content(nlohmann::json{{"access_token", issue_token(resource)},
                                   {"client_id", "00000000-0000-0000-0000-00000000e2e1"},
                                   {"expires_in", std::to_string(kTokenSeconds)},
                                   {"expires_on", std::to_string(expires_on)},
                                   {"ext_expires_in", std::to_string(kTokenSeconds)},
                                   {"not_before", std::to_string(expires_on - kTokenSeconds)},
                                   {"resource", resource},
                                   {"token_type", "Bearer"}}
                        .dump(),
                    "application/json");
}

namespace {

bool bearer_valid(const std::map<std::string, Micros>& tokens, const std::string& auth,
                  Micros now) {
  if (auth.rfind("Bearer ", 0) != 0) return false;
  auto it = tokens.find(auth.substr(7));
  return it != tokens.end() && it->second > now;
}

}  // namespace

void IdentityApi::arm_list_accounts(Call& c) {
  std::shared_lock lock(account_.mu_);
  if (!bearer_valid(account_.tokens_, c.req.get_header_value("Authorization"), c.now))
    return arm_error(c, errors::kArmUnauthorized);
  const std::string sub = c.req.matches[1];
  const std::string host = account_.base_url_.substr(account_.base_url_.find("://") + 3);
  nlohmann::json account{{"id", fmt::format("/subscriptions/{}/resourceGroups/trainyard-emulator/"
                                            "providers/Microsoft.Batch/batchAccounts/{}",
                                            sub, account_.options_.account)},
                         {"name", account_.options_.account},
                         {"type", "Microsoft.Batch/batchAccounts"},
                         {"location", account_.options_.region},
                         {"properties",
                          {{"accountEndpoint", host},
                           {"provisioningState", "Succeeded"},
                           {"poolAllocationMode", "BatchService"},
                           {"dedicatedCoreQuota", 500},
                           {"lowPriorityCoreQuota", 500},
                           {"poolQuota", 100},
                           {"activeJobAndJobScheduleQuota", 300},
                           {"publicNetworkAccess", "Enabled"}}}};
  c.res.status = 200;
  c.res.set_content(nlohmann::json{{"value", nlohmann::json::array({account})}}.dump(),
                    "application/json");
}

void IdentityApi::arm_list_keys(Call& c) {
  std::shared_lock lock(account_.mu_);
  if (!bearer_valid(account_.tokens_, c.req.get_header_value("Authorization"), c.now))
    return arm_error(c, errors::kArmUnauthorized);
  if (c.req.matches[3] != account_.options_.account) {
    return arm_error(c, errors::kArmNotFound);
  }
  c.res.status = 200;
  c.res.set_content(nlohmann::json{{"accountName", account_.options_.account},
                                   {"primary", account_.options_.key_base64},
                                   {"secondary", account_.options_.key_base64}}
                        .dump(),
                    "application/json");
}

}  // namespace trainyard::emu
