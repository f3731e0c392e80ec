// Verifies Batch SharedKey signatures exactly as the service does, with the variants real SDKs
// send.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::emu {

/// A request as it arrived on the wire.
struct ReceivedRequest {
  std::string method;  ///< uppercase verb
  std::string target;  ///< path and query exactly as received, percent-encoded
  std::vector<std::pair<std::string, std::string>> headers;  ///< names in any case, in order
};

/// Why a request failed authentication: the detail the 403 body carries.
struct AuthFailure {
  std::string code;    ///< `AuthenticationFailed` (or `MissingRequiredHeader` …)
  std::string detail;  ///< AuthenticationErrorDetail, e.g. the string the server signed
};

/// Checks `Authorization: SharedKey <account>:<sig>` against `key_base64` and the request's
/// date (ocp-date, else Date), which must be within 15 minutes of `now`. Returns an empty
/// failure code on success. Tries every distinct SignVariant before failing; header names are
/// case-insensitive and a repeated header counts with its first non-empty value.
AuthFailure check_shared_key(const ReceivedRequest& req, std::string_view account,
                             std::string_view key_base64, Timestamp now);

/// The StringToSign for a request (for the 403 detail and tests); `content_length_zero`
/// and `lowercase_query_names` select the variants SDKs differ on.
std::string string_to_sign(const ReceivedRequest& req, std::string_view account,
                           bool content_length_zero, bool lowercase_query_names);

/// How a query name sent more than once is signed; SDKs differ.
enum class RepeatedQueryNames {
  First,              ///< the first value only (Python azure-batch, @azure/batch 10.x)
  EachEntry,          ///< one `name:value` line per occurrence, in order (@azure/batch 13.x)
  CommaJoined,        ///< `name:v1,v2` in arrival order (.NET Azure.Compute.Batch)
  CommaJoinedSorted,  ///< `name:v1,v2` with the values sorted (the REST docs)
};

/// One way of building the StringToSign; check_shared_key tries every distinct one.
struct SignVariant {
  bool content_length_zero = false;      ///< sign "0" for a missing Content-Length, "" for "0"
  bool lowercase_query_names = false;    ///< lowercase query names before sorting (.NET, docs)
  bool drop_empty_query_values = false;  ///< leave out `name=` pairs (Python's parse_qs)
  RepeatedQueryNames repeated = RepeatedQueryNames::First;  ///< repeated query names
  bool blank_date_with_ocp_date = false;  ///< empty Date line when ocp-date is sent (docs, .NET)
};

/// The StringToSign for one variant; the default variant is the reference string.
std::string string_to_sign(const ReceivedRequest& req, std::string_view account,
                           const SignVariant& variant);

/// Every distinct StringToSign check_shared_key accepts for `req`, the reference one first.
std::vector<std::string> candidate_strings_to_sign(const ReceivedRequest& req,
                                                   std::string_view account);

/// Base64 HMAC-SHA256 of `text` with the base64-decoded key; an error for a key that is not base64.
Result<std::string> hmac_sha256_base64(std::string_view key_base64, std::string_view text);

/// Whether a secret a client sent equals the expected one, in a time that depends on neither.
bool same_secret(std::string_view given, std::string_view expected);

/// Formats a time as RFC 1123 (`Fri, 17 Feb 2017 00:00:00 GMT`).
std::string format_rfc1123(Timestamp t);
/// Parses RFC 1123 (and the RFC 850 / asctime forms HTTP allows).
Result<Timestamp> parse_rfc1123(std::string_view text);

}  // namespace trainyard::emu
