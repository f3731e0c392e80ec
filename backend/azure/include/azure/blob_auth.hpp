// Authorizing Blob service requests: Storage SharedKey (its own StringToSign, not Batch's) and
// service SAS tokens for one container or blob, short-lived and with the least permission asked.
#pragma once

#include <memory>
#include <string>
#include <string_view>

#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

/// The Storage service version trainyard speaks (`x-ms-version` and a SAS's `sv`).
inline constexpr const char* kStorageApiVersion = "2021-08-06";
/// Storage's token audience (Entra ID credentials).
inline constexpr const char* kStorageResource = "https://storage.azure.com/";

/// The Blob service SharedKey StringToSign for `req` as it stands (`x-ms-date` and `x-ms-version`
/// set): the twelve standard headers, the `x-ms-` headers, then `/account/path` and the query.
/// What to compare with a 403's AuthenticationErrorDetail. A repeated query name is signed as
/// its sorted values joined by commas, as documented; Azurite signs only one of them, so send a
/// list as one comma-separated value (`include=metadata,snapshots`), as the Storage SDKs do.
std::string blob_string_to_sign(const HttpRequest& req, std::string_view account);

/// Signs each request with Storage SharedKey: sets `x-ms-date`, `x-ms-version` (when the request
/// has none), `Content-Length` and `Authorization: SharedKey account:signature`.
/// A key that is not base64 makes every `authorize` fail with an Auth error that omits the key.
std::unique_ptr<Credential> blob_shared_key_credential(std::string account, std::string key_base64);

/// Adds a SAS token (`sv=...&sig=...`, with or without a leading `?`) to each request's query.
std::unique_ptr<Credential> sas_credential(std::string sas_token);

/// What a SAS lets its bearer do; ask for the least the work needs.
struct SasPermissions {
  bool read = false;    ///< r: read a blob (or, on a container SAS, any blob in it)
  bool add = false;     ///< a: append blocks
  bool create = false;  ///< c: write a new blob, never overwrite
  bool write = false;   ///< w: write or overwrite
  bool del = false;     ///< d: delete
  bool list = false;    ///< l: list a container's blobs (container SAS only)
};

/// A service SAS for one container (`blob` empty: `sr=c`) or one blob (`sr=b`).
struct ServiceSasRequest {
  std::string account_name;
  std::string blob_endpoint;  ///< decides `spr`: `https`, or `https,http` for a loopback http one
  std::string container;
  std::string blob;  ///< unescaped blob name; empty for the container
  SasPermissions permissions;
  Timestamp start;   ///< `st` (give a few minutes' slack for clock skew)
  Timestamp expiry;  ///< `se`: at most kMaxSasLifetime after `start`
};

/// Longest SAS trainyard makes: they are handed to tasks, so they must not outlive the work.
inline constexpr auto kMaxSasLifetime = std::chrono::hours(7 * 24);

/// The `sp` letters in the order the service requires (`racwdl` subset).
std::string sas_permission_letters(const SasPermissions& p);

/// The service SAS StringToSign (version 2020-12-06 and later: sixteen lines).
std::string service_sas_string_to_sign(const ServiceSasRequest& req);

/// The SAS query (`sv=…&sr=…&sp=…&st=…&se=…&spr=…&sig=…`), signed with the account key. Refused
/// (Usage): no permission, `list` on a blob SAS, expiry not after start or past kMaxSasLifetime,
/// an http endpoint that is not loopback; (Auth) a key that is not base64, never quoting it.
Result<std::string> make_service_sas(const ServiceSasRequest& req, std::string_view key_base64);

/// A user delegation key: what the Blob service lends an Entra identity (Get User Delegation
/// Key) so that it can sign SAS tokens without the account key. `value` is a secret.
struct UserDelegationKey {
  std::string signed_oid, signed_tid;       ///< the identity's object and tenant ids
  std::string signed_start, signed_expiry;  ///< when the key is valid (ISO 8601, as sent)
  std::string signed_service;               ///< `b`
  std::string signed_version;               ///< the service version that made it
  std::string value;                        ///< base64
};

/// Parses a Get User Delegation Key answer; errors (Parse) name the element that is missing.
Result<UserDelegationKey> parse_user_delegation_key(std::string_view xml);

/// The user delegation SAS StringToSign (version 2020-12-06 and later: the service SAS's lines
/// with the key's six fields and three empty agent and correlation ids in place of the
/// signedIdentifier).
std::string user_delegation_sas_string_to_sign(const ServiceSasRequest& req,
                                               const UserDelegationKey& key);

/// A user delegation SAS (`…&skoid=…&sktid=…&skt=…&ske=…&sks=…&skv=…&sig=…`), refused as
/// make_service_sas refuses, and (Usage) when it would outlast the key.
Result<std::string> make_user_delegation_sas(const ServiceSasRequest& req,
                                             const UserDelegationKey& key);

/// Signs SAS tokens with an account key, or a user delegation key, that it keeps to itself.
class SasSigner {
 public:
  explicit SasSigner(std::string key_base64) : key_(std::move(key_base64)) {}
  explicit SasSigner(UserDelegationKey key) : delegation_(std::move(key)) {}
  /// make_service_sas with the kept account key, or make_user_delegation_sas with the kept
  /// delegation key.
  Result<std::string> sign(const ServiceSasRequest& req) const {
    return delegation_.value.empty() ? make_service_sas(req, key_)
                                     : make_user_delegation_sas(req, delegation_);
  }

 private:
  std::string key_;
  UserDelegationKey delegation_;
};

/// `2026-11-27T03:17:24Z`: the ISO 8601 form SAS times take.
std::string sas_time(Timestamp t);

}  // namespace trainyard::azure
