// Account discovery through the management plane, and its on-disk cache.
//
// ARM answers `{value: [...], nextLink}` pages and `{error: {code, message}}` failures. The bearer
// token goes only to the configured management host: a `nextLink` elsewhere is refused rather
// than followed, and every URL passes check_url_allowed first.
#include "azure/discovery.hpp"

#include <algorithm>
#include <cctype>
#include <fstream>
#include <optional>
#include <random>
#include <thread>

#include <fmt/format.h>

#include "bearer_credential.hpp"
#include "core/atomic_file.hpp"
#include "core/text.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {

namespace {

using nlohmann::json;

constexpr int kMaxPages = 1000;  // a server that pages forever must not hang discovery
constexpr int kCacheVersion = 1;

Timestamp wall_now() {
  return std::chrono::time_point_cast<Duration>(std::chrono::system_clock::now());
}

// `https://host:port` of `url`, for the same-host check on nextLinks.
std::string origin(std::string_view url) {
  auto sep = url.find("://");
  std::string_view scheme = sep == std::string_view::npos ? "" : url.substr(0, sep);
  return ascii_lowercase(scheme) + "://" + ascii_lowercase(url_host(url));
}

bool is_loopback(const std::string& host) {
  return check_url_allowed("http://" + host).ok();
}

// Names and ids from the service end up in paths, file names and the terminal: keep them plain.
bool plain_id(const std::string& s, size_t max = 64) {
  return !s.empty() && s.size() <= max && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
  });
}

bool plain_host(const std::string& s) {
  return !s.empty() && s.size() <= 255 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '.' || c == ':' ||
           c == '[' || c == ']';
  });
}

// `GET https://management.azure.com/subscriptions/x/…: HTTP 401 AuthenticationFailed: …`.
Error arm_error(const std::string& method, const std::string& url, const HttpResponse& r) {
  json body = json::parse(r.body, nullptr, false);
  const json* err = body.is_object() && body.contains("error") ? &body["error"] : nullptr;
  std::string code = err && err->is_object() ? detail::string_field(*err, "code") : "";
  std::string text = err && err->is_object() ? detail::string_field(*err, "message") : "";
  std::string message = fmt::format("{} {}: HTTP {}", method, redact_url(url), r.status);
  if (!code.empty()) message += " " + first_line_for_message(code, 80);
  if (!text.empty()) message += ": " + first_line_for_message(text);
  ErrorKind kind = r.status == 401 || r.status == 403 ? ErrorKind::Auth
                   : r.status == 404                  ? ErrorKind::NotFound
                                                      : ErrorKind::Http;
  return make_error(kind, std::move(message));
}

// A subscription the credential may see but not read (403), or where Microsoft.Batch is not
// registered, holds no account this user can reach: skipped, not fatal.
bool skippable(const HttpResponse& r) {
  return r.status == 403 ||
         (r.status == 409 && r.body.find("MissingSubscriptionRegistration") != std::string::npos);
}

class ArmReader {
 public:
  ArmReader(HttpClient& http, Credential& credential, const DiscoveryOptions& options)
      : http_(http), credential_(credential), options_(options), rng_(std::random_device{}()) {}

  // A page listing: every item of every page, or the error; `skipped` when the first answer is
  // one `skippable` allows and `may_skip` is set.
  struct Listing {
    std::vector<json> items;
    std::optional<Error> skipped;
  };
  Result<Listing> list_all(std::string url, bool may_skip);
  Result<json> post(const std::string& url);

 private:
  Result<HttpResponse> send(const std::string& method, const std::string& url);
  Result<HttpResponse> attempt(const std::string& method, const std::string& url);
  Result<void> check_next(const std::string& next, const std::string& current) const;

  HttpClient& http_;
  Credential& credential_;
  const DiscoveryOptions& options_;
  std::mt19937_64 rng_;
};

Result<HttpResponse> ArmReader::attempt(const std::string& method, const std::string& url) {
  HttpRequest req;
  req.method = method;
  req.url = url;
  req.timeout = options_.timeout;
  req.headers = {{"Accept", "application/json"}};
  if (auto ok = credential_.authorize(req, wall_now()); !ok) return ok.error();
  auto r = http_.send(req);
  if (!r)
    return make_error(r.error().kind,
                      fmt::format("{} {}: {}", method, redact_url(url), r.error().message));
  return r;
}

Result<HttpResponse> ArmReader::send(const std::string& method, const std::string& url) {
  if (auto ok = check_url_allowed(url); !ok) return ok.error();
  auto r = attempt(method, url);
  for (int n = 1; n <= options_.retry.max_retries; ++n) {
    bool again = r ? is_retryable_status(r->status) : r.error().kind == ErrorKind::Network;
    if (!again) break;
    std::this_thread::sleep_for(retry_delay(options_.retry, n, r ? &*r : nullptr, rng_));
    r = attempt(method, url);
  }
  return r;
}

Result<void> ArmReader::check_next(const std::string& next, const std::string& current) const {
  if (origin(next) != origin(options_.management_endpoint)) {
    return make_error(
        ErrorKind::Usage,
        fmt::format("{}: nextLink {} leaves the management endpoint; not followed",
                    redact_url(current), first_line_for_message(redact_url(next), 200)));
  }
  return ok_result();
}

Result<ArmReader::Listing> ArmReader::list_all(std::string url, bool may_skip) {
  Listing out;
  for (int page = 0; page < kMaxPages; ++page) {
    auto r = send("GET", url);
    if (!r) return r.error();
    if (r->status != 200) {
      if (page == 0 && may_skip && skippable(*r)) {
        out.skipped = arm_error("GET", url, *r);
        return out;
      }
      return arm_error("GET", url, *r);
    }
    json body = json::parse(r->body, nullptr, false);
    if (!body.is_object() || !body.contains("value") || !body["value"].is_array())
      return make_error(ErrorKind::Parse,
                        fmt::format("GET {}: the answer has no \"value\" list", redact_url(url)));
    for (auto& item : body["value"]) out.items.push_back(std::move(item));
    std::string next = detail::string_field(body, "nextLink");
    if (next.empty()) return out;
    TY_TRY(check_next(next, url));
    url = std::move(next);
  }
  return make_error(ErrorKind::Http,
                    fmt::format("GET {}: more than {} pages", redact_url(url), kMaxPages));
}

Result<json> ArmReader::post(const std::string& url) {
  auto r = send("POST", url);
  if (!r) return r.error();
  if (r->status != 200) return arm_error("POST", url, *r);
  json body = json::parse(r->body, nullptr, false);
  if (!body.is_object())
    return make_error(ErrorKind::Parse, fmt::format("POST {}: not JSON", redact_url(url)));
  return body;
}

std::string resource_group_of(const std::string& id) {
  const std::string lower = ascii_lowercase(id);
  const std::string marker = "/resourcegroups/";
  auto at = lower.find(marker);
  if (at == std::string::npos) return {};
  auto from = at + marker.size();
  return id.substr(from, id.find('/', from) - from);
}

// `https://` + accountEndpoint; a loopback host (the emulator) speaks the management endpoint's
// scheme, since it serves both on one port. check_url_allowed has the last word.
Result<std::string> account_endpoint(const std::string& given, const std::string& management) {
  std::string host = given;
  if (auto sep = given.find("://"); sep != std::string::npos) host = given.substr(sep + 3);
  host = trim_trailing(host, '/');
  if (!plain_host(host))
    return make_error(ErrorKind::Parse, fmt::format("accountEndpoint '{}' is not a host",
                                                    first_line_for_message(given, 80)));
  std::string scheme = "https";
  if (given.find("://") != std::string::npos) {
    scheme = given.substr(0, given.find("://"));
  } else if (is_loopback(host)) {
    scheme = management.substr(0, management.find("://"));
  }
  std::string endpoint = scheme + "://" + host;
  TY_TRY(check_url_allowed(endpoint));
  return endpoint;
}

AuthConfig batch_auth(AuthConfig auth) {
  auth.tokens.resource = kBatchResource;
  return auth;
}

// The four quotas of a Batch account's properties (or a cache entry's `quotas`), when all are
// non-negative integers.
std::optional<AccountQuotas> quotas_of(const json& props) {
  const char* names[] = {"dedicatedCoreQuota", "lowPriorityCoreQuota", "poolQuota",
                         "activeJobAndJobScheduleQuota"};
  int64_t values[4] = {};
  for (int i = 0; i < 4; ++i) {
    auto it = props.find(names[i]);
    if (it == props.end() || !it->is_number_integer() || it->get<int64_t>() < 0)
      return std::nullopt;
    values[i] = it->get<int64_t>();
  }
  return AccountQuotas{values[0], values[1], values[2], values[3]};
}

json quotas_json(const AccountQuotas& q) {
  return {{"dedicatedCoreQuota", q.dedicated_cores},
          {"lowPriorityCoreQuota", q.spot_cores},
          {"poolQuota", q.pools},
          {"activeJobAndJobScheduleQuota", q.active_jobs}};
}

// `…/providers/Microsoft.Storage/storageAccounts/NAME` → NAME, when it is a storage account's
// name (3 to 24 lowercase letters and digits); empty otherwise.
std::string storage_account_of(const std::string& resource_id) {
  const std::string marker = "/providers/Microsoft.Storage/storageAccounts/";
  auto at = resource_id.find(marker);
  if (at == std::string::npos) return "";
  std::string name = resource_id.substr(at + marker.size());
  bool valid = name.size() >= 3 && name.size() <= 24 &&
               std::all_of(name.begin(), name.end(),
                           [](char c) { return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'); });
  return valid ? name : "";
}

// properties.autoStorage.storageAccountId, as the storage account's name.
std::string auto_storage_of(const json& props) {
  auto auto_storage = props.find("autoStorage");
  if (auto_storage == props.end() || !auto_storage->is_object()) return "";
  return storage_account_of(detail::string_field(*auto_storage, "storageAccountId"));
}

Result<DiscoveredAccount> to_account(const json& a, const std::string& subscription,
                                     const DiscoveryOptions& o) {
  if (!a.is_object()) return make_error(ErrorKind::Parse, "an account that is not an object");
  DiscoveredAccount d;
  d.config.name = detail::string_field(a, "name");
  if (!plain_id(d.config.name) || d.config.name == "local")
    return make_error(ErrorKind::Parse, fmt::format("account name '{}' is not usable",
                                                    first_line_for_message(d.config.name, 80)));
  auto props = a.find("properties");
  bool has_props = props != a.end() && props->is_object();
  auto endpoint = account_endpoint(has_props ? detail::string_field(*props, "accountEndpoint") : "",
                                   o.management_endpoint);
  if (!endpoint)
    return make_error(endpoint.error().kind,
                      fmt::format("account {}: {}", d.config.name, endpoint.error().message));
  d.config.endpoint = *endpoint;
  d.config.emulator = is_loopback(url_host(*endpoint));
  d.config.auth = batch_auth(o.account_auth);
  d.config.origin = AccountOrigin::Discovery;
  d.subscription = subscription;
  d.resource_group = first_line_for_message(resource_group_of(detail::string_field(a, "id")), 90);
  d.location = first_line_for_message(detail::string_field(a, "location"), 64);
  if (is_region_name(d.location)) d.config.region = d.location;
  if (has_props) d.quotas = quotas_of(*props);
  if (has_props) d.config.auto_storage = auto_storage_of(*props);
  return d;
}

Result<std::vector<std::string>> list_subscriptions(ArmReader& arm, const DiscoveryOptions& o) {
  if (!o.subscriptions.empty()) {
    for (const auto& s : o.subscriptions)
      if (!plain_id(s, 128))
        return make_error(ErrorKind::Usage, fmt::format("'{}' is not a subscription id", s));
    return o.subscriptions;
  }
  auto base = trim_trailing(o.management_endpoint, '/');
  auto listing = arm.list_all(
      base + "/subscriptions?api-version=" + url_encode(o.subscriptions_api_version), false);
  if (!listing) return listing.error();
  std::vector<std::string> ids;
  for (const auto& s : listing->items) {
    std::string id = s.is_object() ? detail::string_field(s, "subscriptionId") : "";
    if (plain_id(id, 128)) ids.push_back(id);
  }
  return ids;
}

// SharedKey discovery only: the account's primary key, kept in its config and nowhere else.
void attach_key(ArmReader& arm, const DiscoveryOptions& o, const json& a, DiscoveredAccount& d,
                std::vector<std::string>& notes) {
  std::string id = detail::string_field(a, "id");
  if (id.rfind("/subscriptions/", 0) != 0 || id.find_first_of("?#") != std::string::npos) {
    notes.push_back(fmt::format("account {}: no usable resource id; no key", d.config.name));
    return;
  }
  auto keys = arm.post(trim_trailing(o.management_endpoint, '/') + id +
                       "/listKeys?api-version=" + url_encode(o.batch_api_version));
  std::string primary = keys ? detail::string_field(*keys, "primary") : "";
  if (primary.empty()) {
    notes.push_back(fmt::format("account {}: no key ({}); it keeps token auth", d.config.name,
                                keys ? "none in the answer" : keys.error().message));
    return;
  }
  AuthConfig shared;
  shared.kind = AuthKind::SharedKey;
  shared.key = std::move(primary);
  d.config.auth = std::move(shared);
}

Result<void> discover_in(ArmReader& arm, const DiscoveryOptions& o, const std::string& sub,
                         DiscoveryResult& out) {
  auto url = fmt::format(
      "{}/subscriptions/{}/providers/Microsoft.Batch/batchAccounts?api-version={}",
      trim_trailing(o.management_endpoint, '/'), url_encode(sub), url_encode(o.batch_api_version));
  auto listing = arm.list_all(url, true);
  if (!listing) return listing.error();
  if (listing->skipped) {
    out.notes.push_back("subscription " + sub + " skipped: " + listing->skipped->message);
    return ok_result();
  }
  for (const auto& a : listing->items) {
    auto d = to_account(a, sub, o);
    if (!d) {
      out.notes.push_back(fmt::format("subscription {}: skipped {}", sub, d.error().message));
      continue;
    }
    if (o.fetch_keys) attach_key(arm, o, a, *d, out.notes);
    out.accounts.push_back(std::move(*d));
  }
  return ok_result();
}

Error parse_at(const std::string& source, const std::string& pointer, const std::string& what) {
  return make_error(ErrorKind::Parse, fmt::format("{}: {}: {}", source, pointer, what));
}

}  // namespace

Result<DiscoveryResult> discover_accounts(HttpClient& http, Credential& credential,
                                          const DiscoveryOptions& options) {
  TY_TRY(check_url_allowed(options.management_endpoint));
  ArmReader arm(http, credential, options);
  auto subscriptions = list_subscriptions(arm, options);
  if (!subscriptions) return subscriptions.error();
  DiscoveryResult out;
  for (const auto& sub : *subscriptions) TY_TRY(discover_in(arm, options, sub, out));
  // Two subscriptions may hold accounts of one name (names are unique per region only).
  std::vector<DiscoveredAccount> unique;
  for (auto& d : out.accounts) {
    bool seen = std::any_of(unique.begin(), unique.end(), [&](const DiscoveredAccount& u) {
      return u.config.name == d.config.name;
    });
    if (seen) {
      out.notes.push_back(fmt::format("account {} of subscription {} ignored: the name is taken",
                                      d.config.name, d.subscription));
      continue;
    }
    unique.push_back(std::move(d));
  }
  out.accounts = std::move(unique);
  return out;
}

AccountConfig management_account(const AuthConfig& auth) {
  AccountConfig a;
  a.name = "discovery";
  a.endpoint = kManagementEndpoint;
  a.auth = auth;
  a.auth.tokens.resource = kManagementResource;
  return a;
}

Result<AuthConfig> parse_discovery_auth(const json& auth, const std::string& source) {
  const std::string ptr = "/discovery/auth";
  if (!auth.is_object()) return parse_at(source, ptr, "expected an object");
  auto type = auth.find("type");
  if (type == auth.end() || !type->is_string() || *type == "sharedKey")
    return parse_at(source, ptr + "/type",
                    "expected servicePrincipal, managedIdentity or azureCli (the management "
                    "plane takes Entra ID tokens)");
  for (const char* k : {"key", "keyEnv", "keyCommand"})
    if (auth.contains(k)) return parse_at(source, ptr + "/" + k, "not used by discovery");
  // The same parser as the accounts' auth, so both objects can never drift apart.
  json wrapped =
      json::array({{{"name", "discovery"}, {"endpoint", kManagementEndpoint}, {"auth", auth}}});
  auto parsed = parse_accounts(wrapped, source);
  if (!parsed) {
    std::string message = parsed.error().message;
    if (auto at = message.find("/accounts/0/auth"); at != std::string::npos)
      message.replace(at, std::strlen("/accounts/0/auth"), ptr);
    return make_error(parsed.error().kind, std::move(message));
  }
  return parsed->front().auth;
}

std::string discovery_cache_path(const std::string& data_dir) {
  return trim_trailing(data_dir, '/') + "/" + kDiscoveryCacheFile;
}

namespace {

json cache_json(const std::vector<DiscoveredAccount>& accounts) {
  json list = json::array();
  for (const auto& d : accounts) {
    json entry{{"name", d.config.name},
               {"endpoint", d.config.endpoint},
               {"emulator", d.config.emulator},
               {"subscription", d.subscription},
               {"resourceGroup", d.resource_group},
               {"location", d.location}};
    if (d.quotas) entry["quotas"] = quotas_json(*d.quotas);
    if (!d.config.auto_storage.empty()) entry["autoStorage"] = d.config.auto_storage;
    list.push_back(std::move(entry));
  }
  return json{{"version", kCacheVersion}, {"accounts", std::move(list)}};
}

Result<DiscoveredAccount> cached_account(const json& e, const AuthConfig& auth,
                                         const std::string& path, size_t i) {
  const std::string ptr = fmt::format("/accounts/{}", i);
  if (!e.is_object()) return parse_at(path, ptr, "expected an object");
  DiscoveredAccount d;
  d.config.name = detail::string_field(e, "name");
  d.config.endpoint = detail::string_field(e, "endpoint");
  if (!plain_id(d.config.name) || d.config.name == "local")
    return parse_at(path, ptr + "/name", "not a usable account name");
  if (auto ok = check_url_allowed(d.config.endpoint); !ok)
    return parse_at(path, ptr + "/endpoint", ok.error().message);
  d.config.emulator =
      e.contains("emulator") && e["emulator"].is_boolean() && e["emulator"].get<bool>();
  d.config.auth = batch_auth(auth);
  d.config.origin = AccountOrigin::Discovery;
  d.subscription = detail::string_field(e, "subscription");
  d.resource_group = detail::string_field(e, "resourceGroup");
  d.location = detail::string_field(e, "location");
  if (is_region_name(d.location)) d.config.region = d.location;
  if (auto q = e.find("quotas"); q != e.end() && q->is_object()) d.quotas = quotas_of(*q);
  d.config.auto_storage = storage_account_of("/providers/Microsoft.Storage/storageAccounts/" +
                                             detail::string_field(e, "autoStorage"));
  return d;
}

}  // namespace

Result<void> save_discovery_cache(const std::string& path,
                                  const std::vector<DiscoveredAccount>& accounts) {
  // Mode 0600 from the first byte: the cache names the user's subscriptions and accounts.
  return write_file_atomic(path, cache_json(accounts).dump(2) + "\n", 0600);
}

Result<std::vector<DiscoveredAccount>> load_discovery_cache(const std::string& path,
                                                            const AuthConfig& auth) {
  std::ifstream in(path);
  if (!in) return std::vector<DiscoveredAccount>{};
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  json doc = json::parse(text, nullptr, false);
  if (!doc.is_object() || !doc.contains("version") || doc["version"] != kCacheVersion ||
      !doc.contains("accounts") || !doc["accounts"].is_array())
    return parse_at(path, "/", "not a discovered-accounts cache of version 1");
  std::vector<DiscoveredAccount> out;
  for (size_t i = 0; i < doc["accounts"].size(); ++i) {
    auto d = cached_account(doc["accounts"][i], auth, path, i);
    if (!d) return d.error();
    out.push_back(std::move(*d));
  }
  return out;
}

}  // namespace trainyard::azure
