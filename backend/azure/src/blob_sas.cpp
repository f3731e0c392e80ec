// Service SAS for a Blob container or blob (learn.microsoft.com/rest/api/storageservices/
// create-service-sas, version 2020-12-06 and later): the token trainyard hands to tasks, so it is
// short-lived and carries only the permissions asked for.
#include <openssl/crypto.h>

#include <chrono>
#include <ctime>
#include <utility>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "azure/blob_auth.hpp"
#include "signing.hpp"

namespace trainyard::azure {

namespace {

bool is_plain_http(std::string_view endpoint) {
  return endpoint.starts_with("http://");
}

Result<void> check_sas_request(const ServiceSasRequest& req) {
  auto refuse = [](std::string what) { return make_error(ErrorKind::Usage, "SAS: " + what); };
  if (req.account_name.empty()) return refuse("no storage account name");
  if (req.container.empty()) return refuse("no container");
  if (sas_permission_letters(req.permissions).empty()) return refuse("no permission asked for");
  if (req.permissions.list && !req.blob.empty())
    return refuse("list is a container permission, not a blob's");
  if (req.expiry <= req.start) return refuse("the expiry must come after the start");
  if (req.expiry - req.start > kMaxSasLifetime)
    return refuse("a SAS may last at most 7 days (ask for a shorter expiry)");
  if (auto ok = check_url_allowed(req.blob_endpoint); !ok) return ok.error();
  return ok_result();
}

std::string canonical_name(const ServiceSasRequest& req) {
  std::string out = fmt::format("/blob/{}/{}", req.account_name, req.container);
  return req.blob.empty() ? out : out + "/" + req.blob;
}

std::string signed_protocol(const ServiceSasRequest& req) {
  return is_plain_http(req.blob_endpoint) ? "https,http" : "https";
}

Result<std::string> decoded_signature(std::string_view key_base64, const std::string& to_sign,
                                      const std::string& whose) {
  auto key = signing::base64_decode(signing::trim(key_base64));
  if (!key || key->empty())
    return make_error(ErrorKind::Auth, fmt::format("SAS: {} is not valid base64", whose));
  std::string sig = signing::hmac_sha256_base64(*key, to_sign);
  OPENSSL_cleanse(key->data(), key->size());
  return sig;
}

// The lines after the canonical name: the service SAS has a signedIdentifier there, a user
// delegation SAS the key's fields and the (empty) agent and correlation ids.
std::string signed_lines(const ServiceSasRequest& req, const std::vector<std::string>& middle) {
  std::vector<std::string> lines{sas_permission_letters(req.permissions), sas_time(req.start),
                                 sas_time(req.expiry), canonical_name(req)};
  lines.insert(lines.end(), middle.begin(), middle.end());
  const std::vector<std::string> tail{
      "",  // signedIP
      signed_protocol(req),
      kStorageApiVersion,
      req.blob.empty() ? "c" : "b",
      "",  // signedSnapshotTime
      "",  // signedEncryptionScope
      "",  // rscc
      "",  // rscd
      "",  // rsce
      "",  // rscl
      "",  // rsct
  };
  lines.insert(lines.end(), tail.begin(), tail.end());
  return fmt::format("{}", fmt::join(lines, "\n"));
}

std::string sas_query(const ServiceSasRequest& req) {
  return fmt::format("sv={}&sr={}&sp={}&st={}&se={}&spr={}", kStorageApiVersion,
                     req.blob.empty() ? "c" : "b", sas_permission_letters(req.permissions),
                     url_encode(sas_time(req.start)), url_encode(sas_time(req.expiry)),
                     url_encode(signed_protocol(req)));
}

}  // namespace

std::string sas_time(Timestamp t) {
  auto secs = std::chrono::floor<std::chrono::seconds>(t).time_since_epoch().count();
  std::time_t tt = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&tt, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

std::string sas_permission_letters(const SasPermissions& p) {
  std::string out;
  for (auto [on, letter] : {std::pair{p.read, 'r'}, std::pair{p.add, 'a'}, std::pair{p.create, 'c'},
                            std::pair{p.write, 'w'}, std::pair{p.del, 'd'}, std::pair{p.list, 'l'}})
    if (on) out += letter;
  return out;
}

std::string service_sas_string_to_sign(const ServiceSasRequest& req) {
  return signed_lines(req, {""});  // signedIdentifier: no stored access policy
}

std::string user_delegation_sas_string_to_sign(const ServiceSasRequest& req,
                                               const UserDelegationKey& key) {
  return signed_lines(req, {key.signed_oid, key.signed_tid, key.signed_start, key.signed_expiry,
                            key.signed_service, key.signed_version, "", "", ""});
}

Result<std::string> make_service_sas(const ServiceSasRequest& req, std::string_view key_base64) {
  TY_TRY(check_sas_request(req));
  auto sig = decoded_signature(key_base64, service_sas_string_to_sign(req),
                               "the key of storage account " + req.account_name);
  if (!sig) return sig.error();
  return fmt::format("{}&sig={}", sas_query(req), url_encode(*sig));
}

Result<std::string> make_user_delegation_sas(const ServiceSasRequest& req,
                                             const UserDelegationKey& key) {
  TY_TRY(check_sas_request(req));
  auto key_expiry = parse_iso8601(key.signed_expiry);
  if (!key_expiry || req.expiry > *key_expiry)
    return make_error(ErrorKind::Usage,
                      "SAS: it would outlast the user delegation key that signs it (ask for a "
                      "shorter expiry)");
  auto sig = decoded_signature(key.value, user_delegation_sas_string_to_sign(req, key),
                               "the user delegation key of storage account " + req.account_name);
  if (!sig) return sig.error();
  return fmt::format("{}&skoid={}&sktid={}&skt={}&ske={}&sks={}&skv={}&sig={}", sas_query(req),
                     url_encode(key.signed_oid), url_encode(key.signed_tid),
                     url_encode(key.signed_start), url_encode(key.signed_expiry),
                     url_encode(key.signed_service), url_encode(key.signed_version),
                     url_encode(*sig));
}

}  // namespace trainyard::azure
