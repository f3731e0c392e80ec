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
  const std::vector<std::string> lines{
      sas_permission_letters(req.permissions),
      sas_time(req.start),
      sas_time(req.expiry),
      canonical_name(req),
      "",  // signedIdentifier: no stored access policy
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
  return fmt::format("{}", fmt::join(lines, "\n"));
}

Result<std::string> make_service_sas(const ServiceSasRequest& req, std::string_view key_base64) {
  TY_TRY(check_sas_request(req));
  auto key = signing::base64_decode(signing::trim(key_base64));
  if (!key || key->empty())
    return make_error(
        ErrorKind::Auth,
        fmt::format("SAS: the key of storage account {} is not valid base64", req.account_name));
  std::string sig = signing::hmac_sha256_base64(*key, service_sas_string_to_sign(req));
  OPENSSL_cleanse(key->data(), key->size());
  return fmt::format("sv={}&sr={}&sp={}&st={}&se={}&spr={}&sig={}", kStorageApiVersion,
                     req.blob.empty() ? "c" : "b", sas_permission_letters(req.permissions),
                     url_encode(sas_time(req.start)), url_encode(sas_time(req.expiry)),
                     url_encode(signed_protocol(req)), url_encode(sig));
}

}  // namespace trainyard::azure
