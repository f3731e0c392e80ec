// Batch SharedKey: HMAC-SHA256 over the StringToSign of azure-batch-api.md §6, keyed by the
// base64-decoded account key. Written from the protocol description alone: the emulator's
// verifier must stay an independent judge, so nothing here is shared with it.
#include <openssl/crypto.h>

#include <algorithm>
#include <optional>
#include <vector>

#include <fmt/format.h>

#include "azure/credentials.hpp"
#include "bearer_credential.hpp"
#include "core/text.hpp"
#include "signing.hpp"

namespace trainyard::azure {

using namespace signing;

namespace {

std::string canonicalized_headers(const Headers& headers) {
  std::vector<std::pair<std::string, std::string>> ocp;
  for (const auto& [k, v] : headers) {
    std::string name = ascii_lowercase(trim(k));
    if (name.starts_with("ocp-")) ocp.emplace_back(std::move(name), std::string(trim(v)));
  }
  std::stable_sort(ocp.begin(), ocp.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (const auto& [k, v] : ocp) out += fmt::format("{}:{}\n", k, v);
  return out;
}

class SharedKeyCredential final : public Credential {
 public:
  SharedKeyCredential(std::string account, std::string key_base64)
      : account_(std::move(account)), key_(base64_decode(trim(key_base64))) {
    OPENSSL_cleanse(key_base64.data(), key_base64.size());
  }
  ~SharedKeyCredential() override {
    if (key_) OPENSSL_cleanse(key_->data(), key_->size());
  }
  SharedKeyCredential(const SharedKeyCredential&) = delete;
  SharedKeyCredential& operator=(const SharedKeyCredential&) = delete;

  Result<void> authorize(HttpRequest& req, Timestamp now) override;
  std::string describe() const override { return fmt::format("SharedKey (account {})", account_); }

 private:
  std::string sign(const std::string& string_to_sign) const;

  std::string account_;
  std::optional<std::string> key_;  // decoded; nullopt when the configured key is not base64
};

Result<void> SharedKeyCredential::authorize(HttpRequest& req, Timestamp now) {
  if (!key_) {
    return make_error(ErrorKind::Auth,
                      fmt::format("{}: the account key is not valid base64", describe()));
  }
  set_header(req.headers, "ocp-date", rfc1123(now));
  // Whatever the HTTP layer would add on its own, the signature covers what is set here.
  if (req.body.empty()) {
    erase_header(req.headers, "Content-Length");
  } else {
    set_header(req.headers, "Content-Length", std::to_string(req.body.size()));
  }
  std::string signature = sign(shared_key_string_to_sign(req, account_));
  set_header(req.headers, "Authorization", fmt::format("SharedKey {}:{}", account_, signature));
  return ok_result();
}

std::string SharedKeyCredential::sign(const std::string& string_to_sign) const {
  return hmac_sha256_base64(*key_, string_to_sign);
}

}  // namespace

std::string shared_key_string_to_sign(const HttpRequest& req, std::string_view account) {
  std::string length = first_header(req.headers, "Content-Length");
  std::string out = uppercase(req.method) + '\n';
  for (const char* name : {"Content-Encoding", "Content-Language"})
    out += first_header(req.headers, name) + '\n';
  out += (length == "0" ? std::string() : length) + '\n';
  for (const char* name : {"Content-MD5", "Content-Type"})
    out += first_header(req.headers, name) + '\n';
  out += '\n';  // Date: the time travels in ocp-date instead
  for (const char* name :
       {"If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since", "Range"}) {
    out += first_header(req.headers, name) + '\n';
  }
  return out + canonicalized_headers(req.headers) + canonicalized_resource(account, req.url);
}

std::unique_ptr<Credential> shared_key_credential(std::string account, std::string key_base64) {
  return std::make_unique<SharedKeyCredential>(std::move(account), std::move(key_base64));
}

bool is_valid_account_key(std::string_view key_base64) {
  auto key = base64_decode(trim(key_base64));
  return key && !key->empty();
}

}  // namespace trainyard::azure
