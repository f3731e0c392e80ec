// The token cache behind the bearer credentials, and header helpers shared by all credentials.
#include "bearer_credential.hpp"

#include <algorithm>
#include <chrono>

#include "core/sanitizer.hpp"

namespace trainyard::azure {

namespace {

// Refresh this long before expiry, as the Azure SDKs do, so a token never expires in flight.
constexpr auto kRefreshMargin = std::chrono::minutes(5);
// A refresh that fails may fall back on the cached token only while this much of it is left.
constexpr auto kFallbackMargin = std::chrono::seconds(30);

}  // namespace

Result<void> BearerCredential::authorize(HttpRequest& req, Timestamp now) {
  auto token = current_token(now);
  if (!token) return token.error();
  set_header(req.headers, "Authorization", "Bearer " + *token);
  return ok_result();
}

Result<std::string> BearerCredential::current_token(Timestamp now) {
  std::lock_guard lock(mu_);
  if (cached_ && cached_->expires_on - now >= kRefreshMargin) return cached_->token;
  auto fresh = fetch(now);
  if (fresh) {
    cached_ = std::move(*fresh);
    return cached_->token;
  }
  // A token service that is briefly down should not fail requests a still-valid token can make.
  if (cached_ && cached_->expires_on - now > kFallbackMargin) return cached_->token;
  return fresh.error();
}

void erase_header(Headers& headers, std::string_view name) {
  std::erase_if(headers, [&](const auto& h) { return iequals(h.first, name); });
}

void set_header(Headers& headers, std::string_view name, std::string value) {
  erase_header(headers, name);
  headers.emplace_back(std::string(name), std::move(value));
}

std::string scrub_secret(std::string text, std::string_view secret) {
  if (secret.empty()) return text;
  for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at + 3)) {
    text.replace(at, secret.size(), "***");
  }
  return text;
}

std::string first_line_for_message(std::string_view text, size_t max_bytes) {
  size_t start = text.find_first_not_of(" \t\r\n");
  if (start == std::string_view::npos) return {};
  text.remove_prefix(start);
  text = text.substr(0, text.find_first_of("\r\n"));
  std::string line = sanitize_text(text);
  if (line.size() <= max_bytes) return line;
  size_t cut = max_bytes;
  // Back up to a UTF-8 lead byte so the message stays valid UTF-8.
  while (cut > 0 && (static_cast<unsigned char>(line[cut]) & 0xC0) == 0x80) --cut;
  return line.substr(0, cut) + "…";
}

}  // namespace trainyard::azure
