// What the token credentials share: a cached bearer token and the header helpers the signers use.
#pragma once

#include <mutex>
#include <optional>
#include <string>
#include <string_view>

#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "core/result.hpp"
#include "core/text.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

/// An access token and when it stops being valid.
struct AccessToken {
  std::string token;
  Timestamp expires_on;
};

/// A credential that sends `Authorization: Bearer <token>`, fetching the token only when none is
/// cached or less than 5 minutes of it remain. `authorize` may be called from any thread.
class BearerCredential : public Credential {
 public:
  Result<void> authorize(HttpRequest& req, Timestamp now) final;

 protected:
  /// Gets a fresh token; called with the cache locked, so at most one fetch runs at a time.
  virtual Result<AccessToken> fetch(Timestamp now) = 0;

 private:
  Result<std::string> current_token(Timestamp now);

  std::mutex mu_;
  std::optional<AccessToken> cached_;
};

/// Removes every `name` header (any case) and appends `name: value`, so re-signing a request on
/// retry replaces what an earlier attempt set instead of duplicating it.
void set_header(Headers& headers, std::string_view name, std::string value);

/// Removes every `name` header (any case).
void erase_header(Headers& headers, std::string_view name);

/// `text` with every occurrence of `secret` replaced by `***` (no-op for an empty secret).
std::string scrub_secret(std::string text, std::string_view secret);

/// One line of untrusted text (a server's error description, a child's stderr) fit for an error
/// message: the first non-empty line, terminal controls neutralised, at most `max_bytes`.
std::string first_line_for_message(std::string_view text, size_t max_bytes = 300);

}  // namespace trainyard::azure
