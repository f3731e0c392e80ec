// The pieces Batch's and Storage's SharedKey schemes and Storage's SAS share: strict base64, the
// HMAC-SHA256 signature, RFC 1123 dates and Storage's CanonicalizedResource rules.
#pragma once

#include <optional>
#include <string>
#include <string_view>

#include "azure/http.hpp"
#include "core/text.hpp"
#include "core/time.hpp"

namespace trainyard::azure::signing {

/// Percent-decoding as the server does it: `+` stays `+`, and a malformed escape is kept as
/// written.
std::string percent_decode(std::string_view s);

/// `s` with ASCII lowercase letters raised.
std::string uppercase(std::string_view s);

/// `s` without surrounding spaces, tabs, CR and LF (core/text.hpp's trim_space).
inline std::string_view trim(std::string_view s) {
  return trim_space(s);
}

/// Strict RFC 4648 decoding; nullopt on any stray character or wrong padding.
std::optional<std::string> base64_decode(std::string_view in);

/// Standard base64 with padding.
std::string base64_encode(const unsigned char* data, size_t n);

/// base64(HMAC-SHA256(key, text)): the signature both SharedKey and SAS send.
std::string hmac_sha256_base64(const std::string& key, const std::string& text);

/// RFC 1123 in GMT with English names whatever the locale (`Fri, 17 Feb 2017 00:00:00 GMT`).
std::string rfc1123(Timestamp now);

/// `/account/path` then `\nname:value` per query parameter, names lowercased and sorted, values
/// decoded; a repeated name lists its values sorted and comma-separated.
std::string canonicalized_resource(std::string_view account, std::string_view url);

/// The first value of header `name` (case-insensitive), trimmed; empty when absent.
std::string first_header(const Headers& headers, std::string_view name);

}  // namespace trainyard::azure::signing
