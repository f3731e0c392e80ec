// Microsoft Entra ID tokens: client credentials (service principal) and managed identity (IMDS).
// Each caches its token (bearer_credential.cpp); secrets stay inside and out of every message.
#include <openssl/crypto.h>

#include <charconv>
#include <chrono>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "azure/credentials.hpp"
#include "bearer_credential.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {

namespace {

using nlohmann::json;

// IMDS lives on a link-local address over plain HTTP, by design; nothing else may use http://
// unless it is loopback (check_url_allowed).
constexpr std::string_view kImdsHost = "http://169.254.169.254/";

constexpr int64_t kMaxSeconds = 100'000'000'000;

std::string without_trailing_slash(std::string s) {
  while (!s.empty() && s.back() == '/') s.pop_back();
  return s;
}

// IMDS sends numbers as strings, Entra ID as numbers: accept both. Values a Timestamp cannot
// hold (past the year 5000) are refused rather than overflowed.
std::optional<int64_t> json_seconds(const json& body, const char* name) {
  auto it = body.find(name);
  if (it == body.end()) return std::nullopt;
  int64_t v = -1;
  if (it->is_number_integer()) v = it->get<int64_t>();
  if (it->is_string()) {
    const auto& text = it->get_ref<const std::string&>();
    auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (ec != std::errc() || end != text.data() + text.size()) return std::nullopt;
  }
  if (v < 0 || v > kMaxSeconds) return std::nullopt;
  return v;
}

// Prefers the relative lifetime: it is immune to skew between this clock and the token service's.
std::optional<Timestamp> token_expiry(const json& body, Timestamp now) {
  if (auto in = json_seconds(body, "expires_in")) return now + std::chrono::seconds(*in);
  if (auto on = json_seconds(body, "expires_on")) return Timestamp(std::chrono::seconds(*on));
  return std::nullopt;
}

// `invalid_client: AADSTS7000215: Invalid client secret provided.` from an OAuth error body.
std::string oauth_error_text(const json& body) {
  std::string code = first_line_for_message(detail::string_field(body, "error"), 80);
  std::string text = first_line_for_message(detail::string_field(body, "error_description"));
  if (code.empty()) return text;
  return text.empty() ? code : fmt::format("{}: {}", code, text);
}

Error token_http_error(const HttpResponse& resp, std::string_view what, std::string_view secret) {
  json body = json::parse(resp.body, nullptr, false);
  std::string detail = body.is_object() ? oauth_error_text(body) : std::string();
  std::string message = fmt::format("{}: token request failed with HTTP {}", what, resp.status);
  if (!detail.empty()) message += ": " + detail;
  bool refused = resp.status == 400 || resp.status == 401 || resp.status == 403;
  return make_error(refused ? ErrorKind::Auth : ErrorKind::Http,
                    scrub_secret(std::move(message), secret));
}

// The token endpoints' reply, for both flows: `access_token` plus `expires_in` or `expires_on`.
Result<AccessToken> parse_token_response(const HttpResponse& resp, Timestamp now,
                                         std::string_view what, std::string_view secret) {
  if (resp.status != 200) return token_http_error(resp, what, secret);
  json body = json::parse(resp.body, nullptr, false);
  if (!body.is_object()) {
    return make_error(ErrorKind::Parse, fmt::format("{}: the token reply is not JSON", what));
  }
  std::string token = detail::string_field(body, "access_token");
  auto expiry = token_expiry(body, now);
  if (token.empty() || !expiry) {
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: the token reply lacks access_token or its expiry", what));
  }
  return AccessToken{std::move(token), *expiry};
}

Result<AccessToken> send_for_token(HttpClient& http, const HttpRequest& req, Timestamp now,
                                   std::string_view what, std::string_view secret) {
  auto resp = http.send(req);
  if (!resp) {
    return make_error(resp.error().kind,
                      scrub_secret(fmt::format("{}: {}", what, resp.error().message), secret));
  }
  return parse_token_response(*resp, now, what, secret);
}

Error prefixed(const Error& e, std::string_view what) {
  return make_error(e.kind, fmt::format("{}: {}", what, e.message));
}

std::shared_ptr<HttpClient> or_new_client(std::shared_ptr<HttpClient> http) {
  return http ? std::move(http) : std::make_shared<HttpClient>();
}

class ClientSecretCredential final : public BearerCredential {
 public:
  ClientSecretCredential(std::string tenant, std::string client_id, std::string secret,
                         TokenSource source, std::shared_ptr<HttpClient> http)
      : tenant_(std::move(tenant)),
        client_id_(std::move(client_id)),
        secret_(std::move(secret)),
        source_(std::move(source)),
        http_(or_new_client(std::move(http))) {}
  ~ClientSecretCredential() override { OPENSSL_cleanse(secret_.data(), secret_.size()); }
  ClientSecretCredential(const ClientSecretCredential&) = delete;
  ClientSecretCredential& operator=(const ClientSecretCredential&) = delete;

  std::string describe() const override {
    return fmt::format("service principal (tenant {}, client id {})", tenant_, client_id_);
  }

 protected:
  Result<AccessToken> fetch(Timestamp now) override;

 private:
  HttpRequest token_request() const;

  std::string tenant_, client_id_, secret_;
  TokenSource source_;
  std::shared_ptr<HttpClient> http_;
};

HttpRequest ClientSecretCredential::token_request() const {
  HttpRequest req;
  req.method = "POST";
  req.url = fmt::format("{}/{}/oauth2/v2.0/token", without_trailing_slash(source_.authority),
                        url_encode(tenant_));
  req.headers = {{"Content-Type", "application/x-www-form-urlencoded"},
                 {"Accept", "application/json"}};
  // The v2 endpoint takes a scope; `{resource}/.default` keeps Batch's double slash on purpose.
  req.body = fmt::format("grant_type=client_credentials&client_id={}&client_secret={}&scope={}",
                         url_encode(client_id_), url_encode(secret_),
                         url_encode(source_.resource + "/.default"));
  return req;
}

Result<AccessToken> ClientSecretCredential::fetch(Timestamp now) {
  if (tenant_.empty() || client_id_.empty()) {
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: tenant and client id are required", describe()));
  }
  HttpRequest req = token_request();
  if (auto allowed = check_url_allowed(req.url); !allowed)
    return prefixed(allowed.error(), describe());
  auto token = send_for_token(*http_, req, now, describe(), secret_);
  OPENSSL_cleanse(req.body.data(), req.body.size());
  return token;
}

class ManagedIdentityCredential final : public BearerCredential {
 public:
  ManagedIdentityCredential(std::optional<std::string> client_id, TokenSource source,
                            std::shared_ptr<HttpClient> http)
      : client_id_(std::move(client_id)),
        source_(std::move(source)),
        http_(or_new_client(std::move(http))) {}

  std::string describe() const override {
    return client_id_ ? fmt::format("managed identity (client id {})", *client_id_)
                      : std::string("managed identity (system-assigned)");
  }

 protected:
  Result<AccessToken> fetch(Timestamp now) override;

 private:
  std::string token_url() const;

  std::optional<std::string> client_id_;
  TokenSource source_;
  std::shared_ptr<HttpClient> http_;
};

std::string ManagedIdentityCredential::token_url() const {
  const std::string& base = source_.imds_endpoint;
  std::string url =
      fmt::format("{}{}api-version=2018-02-01&resource={}", base,
                  base.find('?') == std::string::npos ? '?' : '&', url_encode(source_.resource));
  if (client_id_) url += "&client_id=" + url_encode(*client_id_);
  return url;
}

Result<AccessToken> ManagedIdentityCredential::fetch(Timestamp now) {
  HttpRequest req;
  req.url = token_url();
  req.headers = {{"Metadata", "true"}, {"Accept", "application/json"}};
  if (!req.url.starts_with(kImdsHost)) {
    if (auto allowed = check_url_allowed(req.url); !allowed)
      return prefixed(allowed.error(), describe());
  }
  return send_for_token(*http_, req, now, describe(), {});
}

}  // namespace

std::unique_ptr<Credential> client_secret_credential(std::string tenant, std::string client_id,
                                                     std::string client_secret, TokenSource source,
                                                     std::shared_ptr<HttpClient> http) {
  return std::make_unique<ClientSecretCredential>(std::move(tenant), std::move(client_id),
                                                  std::move(client_secret), std::move(source),
                                                  std::move(http));
}

std::unique_ptr<Credential> managed_identity_credential(std::optional<std::string> client_id,
                                                        TokenSource source,
                                                        std::shared_ptr<HttpClient> http) {
  return std::make_unique<ManagedIdentityCredential>(std::move(client_id), std::move(source),
                                                     std::move(http));
}

}  // namespace trainyard::azure
