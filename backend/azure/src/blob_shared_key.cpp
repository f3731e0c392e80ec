// Storage SharedKey for the Blob service (learn.microsoft.com/rest/api/storageservices/
// authorize-with-shared-key): HMAC-SHA256 over the Blob StringToSign, keyed by the decoded
// account key; and the SAS credential that carries a token in the query instead.
#include <openssl/crypto.h>

#include <algorithm>
#include <optional>
#include <utility>
#include <vector>

#include <fmt/format.h>

#include "azure/blob_auth.hpp"
#include "bearer_credential.hpp"
#include "core/text.hpp"
#include "signing.hpp"

namespace trainyard::azure {

using namespace signing;

namespace {

// `name:value\n` for each `x-ms-` header, names lowercased and sorted, values trimmed.
std::string canonicalized_storage_headers(const Headers& headers) {
  std::vector<std::pair<std::string, std::string>> ms;
  for (const auto& [k, v] : headers) {
    std::string name = ascii_lowercase(trim(k));
    if (name.starts_with("x-ms-")) ms.emplace_back(std::move(name), std::string(trim(v)));
  }
  std::stable_sort(ms.begin(), ms.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [k, v] : ms) out += fmt::format("{}:{}\n", k, v);
  return out;
}

void set_content_length(HttpRequest& req) {
  // Whatever the HTTP layer would add on its own, the signature covers what is set here.
  if (req.body.empty()) {
    erase_header(req.headers, "Content-Length");
  } else {
    set_header(req.headers, "Content-Length", std::to_string(req.body.size()));
  }
}

void set_version(HttpRequest& req) {
  if (find_header(req.headers, "x-ms-version").empty())
    set_header(req.headers, "x-ms-version", kStorageApiVersion);
}

class BlobSharedKeyCredential final : public Credential {
 public:
  BlobSharedKeyCredential(std::string account, std::string key_base64)
      : account_(std::move(account)), key_(base64_decode(trim(key_base64))) {
    OPENSSL_cleanse(key_base64.data(), key_base64.size());
  }
  ~BlobSharedKeyCredential() override {
    if (key_) OPENSSL_cleanse(key_->data(), key_->size());
  }
  BlobSharedKeyCredential(const BlobSharedKeyCredential&) = delete;
  BlobSharedKeyCredential& operator=(const BlobSharedKeyCredential&) = delete;

  Result<void> authorize(HttpRequest& req, Timestamp now) override {
    if (!key_)
      return make_error(ErrorKind::Auth,
                        fmt::format("{}: the account key is not valid base64", describe()));
    set_header(req.headers, "x-ms-date", rfc1123(now));
    set_version(req);
    set_content_length(req);
    std::string signature = hmac_sha256_base64(*key_, blob_string_to_sign(req, account_));
    set_header(req.headers, "Authorization", fmt::format("SharedKey {}:{}", account_, signature));
    return ok_result();
  }
  std::string describe() const override {
    return fmt::format("Storage SharedKey (account {})", account_);
  }

 private:
  std::string account_;
  std::optional<std::string> key_;  // decoded; nullopt when the configured key is not base64
};

class SasCredential final : public Credential {
 public:
  explicit SasCredential(std::string token) : token_(std::move(token)) {
    if (token_.starts_with('?')) token_.erase(0, 1);
  }
  ~SasCredential() override { OPENSSL_cleanse(token_.data(), token_.size()); }
  SasCredential(const SasCredential&) = delete;
  SasCredential& operator=(const SasCredential&) = delete;

  Result<void> authorize(HttpRequest& req, Timestamp /*now*/) override {
    if (token_.empty()) return make_error(ErrorKind::Auth, "the SAS token is empty");
    // A retry authorizes the same request again: the token goes in once.
    if (req.url.find(token_) == std::string::npos)
      req.url += (req.url.find('?') == std::string::npos ? "?" : "&") + token_;
    set_version(req);
    return ok_result();
  }
  std::string describe() const override { return "shared access signature"; }

 private:
  std::string token_;
};

}  // namespace

std::string blob_string_to_sign(const HttpRequest& req, std::string_view account) {
  std::string length = first_header(req.headers, "Content-Length");
  std::string out = uppercase(req.method) + '\n';
  for (const char* name : {"Content-Encoding", "Content-Language"})
    out += first_header(req.headers, name) + '\n';
  out += (length == "0" ? std::string() : length) + '\n';  // version 2015-02-21 and later
  for (const char* name : {"Content-MD5", "Content-Type"})
    out += first_header(req.headers, name) + '\n';
  // Date stays empty: the time travels in x-ms-date, which the canonicalized headers carry.
  out += (first_header(req.headers, "x-ms-date").empty() ? first_header(req.headers, "Date")
                                                         : std::string()) +
         '\n';
  for (const char* name :
       {"If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since", "Range"}) {
    out += first_header(req.headers, name) + '\n';
  }
  return out + canonicalized_storage_headers(req.headers) +
         canonicalized_resource(account, req.url);
}

std::unique_ptr<Credential> blob_shared_key_credential(std::string account,
                                                       std::string key_base64) {
  return std::make_unique<BlobSharedKeyCredential>(std::move(account), std::move(key_base64));
}

std::unique_ptr<Credential> sas_credential(std::string sas_token) {
  return std::make_unique<SasCredential>(std::move(sas_token));
}

}  // namespace trainyard::azure
