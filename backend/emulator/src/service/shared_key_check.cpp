// Server side of Batch SharedKey: rebuilds the StringToSign from the request as received and
// compares HMACs. Independent of any client-side signing code on purpose: it is the judge.
#include "emulator/shared_key_check.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <optional>
#include <unordered_set>

#include <fmt/format.h>

#include "mac.hpp"
#include "text.hpp"

namespace trainyard::emu {
namespace {

using namespace std::chrono_literals;

constexpr auto kMaxClockSkew = 15min;

// The standard headers around Content-Length and Date, which have their own rules.
constexpr std::array<std::string_view, 2> kHeadersBeforeLength = {"Content-Encoding",
                                                                  "Content-Language"};
constexpr std::array<std::string_view, 2> kHeadersBeforeDate = {"Content-MD5", "Content-Type"};
constexpr std::array<std::string_view, 5> kHeadersAfterDate = {
    "If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since", "Range"};

// HTTP strips optional whitespace around field values, so what a client signed has none.
std::string_view trim_ows(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

// The first non-empty value of a header. Clients cannot send one header twice, so a repeat
// comes from a proxy or a hand-built request; the first value is what was most likely signed.
// Empty values count as absent, as Python and JS do (they skip empty headers when signing).
std::string_view header(const ReceivedRequest& req, std::string_view name) {
  for (const auto& [n, v] : req.headers) {
    if (iequals(n, name) && !trim_ows(v).empty()) return trim_ows(v);
  }
  return {};
}

// ---- target ----------------------------------------------------------------------------

struct SplitTarget {
  std::string_view path;
  std::string_view query;
};

// Path and query of an origin-form (or absolute-form) request target, still percent-encoded:
// every SDK signs the path exactly as it goes on the wire.
SplitTarget split_target(std::string_view target) {
  if (auto scheme = target.find("://");
      scheme != std::string_view::npos && target.find_first_of("/?") > scheme) {
    auto path_start = target.find_first_of("/?", scheme + 3);
    target = path_start == std::string_view::npos ? std::string_view{} : target.substr(path_start);
  }
  target = target.substr(0, target.find('#'));
  auto q = target.find('?');
  SplitTarget out{target.substr(0, q), q == std::string_view::npos ? "" : target.substr(q + 1)};
  if (out.path.empty() || out.path.front() != '/') out.path = "/";
  return out;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Form decoding as parse_qs and URLSearchParams do it: '+' is a space, a bad escape stays.
std::string form_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (size_t i = 0; i < s.size(); ++i) {
    if (s[i] == '+') {
      out += ' ';
    } else if (s[i] == '%' && i + 2 < s.size() && hex_value(s[i + 1]) >= 0 &&
               hex_value(s[i + 2]) >= 0) {
      out += static_cast<char>(hex_value(s[i + 1]) * 16 + hex_value(s[i + 2]));
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

using QueryParams = std::vector<std::pair<std::string, std::string>>;

QueryParams parse_query(std::string_view query) {
  QueryParams out;
  while (!query.empty()) {
    auto amp = query.find('&');
    auto part = query.substr(0, amp);
    query = amp == std::string_view::npos ? std::string_view{} : query.substr(amp + 1);
    if (part.empty()) continue;
    auto eq = part.find('=');
    out.emplace_back(form_decode(part.substr(0, eq)),
                     eq == std::string_view::npos ? "" : form_decode(part.substr(eq + 1)));
  }
  return out;
}

// `\nname:value` lines for one variant of query canonicalization.
std::string canonical_query(QueryParams params, const SignVariant& v) {
  if (v.drop_empty_query_values) {
    std::erase_if(params, [](const auto& p) { return p.second.empty(); });
  }
  if (v.lowercase_query_names) {
    for (auto& p : params) p.first = ascii_lowercase(p.first);
  }
  // Byte order of UTF-8 is code point order, which is how Python and JS sort names.
  std::stable_sort(params.begin(), params.end(),
                   [](const auto& a, const auto& b) { return a.first < b.first; });
  std::string out;
  for (size_t i = 0; i < params.size();) {
    size_t end = i;
    std::vector<std::string> values;
    while (end < params.size() && params[end].first == params[i].first) {
      values.push_back(params[end++].second);
    }
    if (v.repeated == RepeatedQueryNames::CommaJoinedSorted) {
      std::sort(values.begin(), values.end());
    }
    if (v.repeated == RepeatedQueryNames::First) values.resize(1);
    bool joined = v.repeated == RepeatedQueryNames::CommaJoined ||
                  v.repeated == RepeatedQueryNames::CommaJoinedSorted;
    for (size_t k = 0; k < values.size(); ++k) {
      if (k == 0 || !joined) {
        out += fmt::format("\n{}:{}", params[i].first, values[k]);
      } else {
        out += fmt::format(",{}", values[k]);
      }
    }
    i = end;
  }
  return out;
}

// ---- headers ---------------------------------------------------------------------------

std::string_view content_length(const ReceivedRequest& req, bool swap_zero) {
  auto value = header(req, "Content-Length");
  if (!swap_zero) return value;
  if (value.empty()) return "0";
  return value == "0" ? std::string_view{} : value;
}

// ocp-* headers: lowercased names, sorted, first non-empty value of each.
std::string canonical_ocp_headers(const ReceivedRequest& req) {
  std::vector<std::string> names;
  for (const auto& [n, v] : req.headers) {
    auto name = ascii_lowercase(std::string(n));
    if (name.starts_with("ocp-") && !header(req, name).empty()) names.push_back(std::move(name));
  }
  std::sort(names.begin(), names.end());
  names.erase(std::unique(names.begin(), names.end()), names.end());
  std::string out;
  for (const auto& name : names) out += fmt::format("{}:{}\n", name, header(req, name));
  return out;
}

// ---- variants --------------------------------------------------------------------------

// Every combination; the reference variant (all defaults) comes first and most requests
// match it, so later ones are built only after a mismatch.
std::vector<SignVariant> all_variants() {
  std::vector<SignVariant> out;
  for (auto repeated : {RepeatedQueryNames::First, RepeatedQueryNames::EachEntry,
                        RepeatedQueryNames::CommaJoined, RepeatedQueryNames::CommaJoinedSorted}) {
    for (int bits = 0; bits < 16; ++bits) {
      out.push_back(SignVariant{.content_length_zero = (bits & 1) != 0,
                                .lowercase_query_names = (bits & 2) != 0,
                                .drop_empty_query_values = (bits & 4) != 0,
                                .repeated = repeated,
                                .blank_date_with_ocp_date = (bits & 8) != 0});
    }
  }
  return out;
}

// Calls `fn` with each distinct StringToSign until it returns true; true if one did.
template <typename Fn>
bool for_each_candidate(const ReceivedRequest& req, std::string_view account, Fn&& fn) {
  static const std::vector<SignVariant> kVariants = all_variants();
  std::unordered_set<std::string> seen;
  for (const auto& v : kVariants) {
    auto s = string_to_sign(req, account, v);
    if (!seen.insert(s).second) continue;
    if (fn(s)) return true;
  }
  return false;
}

// ---- failures --------------------------------------------------------------------------

AuthFailure failed(std::string detail) {
  return AuthFailure{"AuthenticationFailed", std::move(detail)};
}

struct ParsedAuthorization {
  std::string_view account;
  std::string_view signature;
};

std::optional<AuthFailure> parse_authorization(std::string_view value, std::string_view account,
                                               ParsedAuthorization& out) {
  if (value.empty()) return failed("The Authorization header is missing.");
  auto space = value.find(' ');
  auto scheme = value.substr(0, space);
  if (!iequals(scheme, "SharedKey")) {
    return failed(fmt::format(
        "The authorization scheme '{}' is not supported here; expected 'SharedKey'.", scheme));
  }
  auto credential = space == std::string_view::npos ? "" : trim_ows(value.substr(space + 1));
  auto colon = credential.find(':');
  if (colon == std::string_view::npos) {
    return failed("The Authorization header is not of the form 'SharedKey <account>:<signature>'.");
  }
  out.account = credential.substr(0, colon);
  out.signature = trim_ows(credential.substr(colon + 1));
  // Account names are lowercase on the service; clients may spell them in any case.
  if (!iequals(out.account, account)) {
    return failed(fmt::format("The account '{}' in the Authorization header is not '{}'.",
                              out.account, account));
  }
  return std::nullopt;
}

std::optional<AuthFailure> check_date(const ReceivedRequest& req, Timestamp now) {
  auto text = header(req, "ocp-date");
  if (text.empty()) text = header(req, "Date");
  if (text.empty()) {
    return failed("Request date header not specified: send ocp-date (or Date) in RFC 1123 form.");
  }
  auto when = parse_rfc1123(text);
  if (!when) return failed(fmt::format("Request date header is not an RFC 1123 date: '{}'", text));
  if (now - *when > kMaxClockSkew) {
    return failed(fmt::format("Request date header too old: '{}'", text));
  }
  if (*when - now > kMaxClockSkew) {
    return failed(fmt::format("Request date header too new: '{}'", text));
  }
  return std::nullopt;
}

}  // namespace

std::string string_to_sign(const ReceivedRequest& req, std::string_view account,
                           const SignVariant& v) {
  std::string out = req.method + "\n";
  for (auto name : kHeadersBeforeLength) out += fmt::format("{}\n", header(req, name));
  out += fmt::format("{}\n", content_length(req, v.content_length_zero));
  for (auto name : kHeadersBeforeDate) out += fmt::format("{}\n", header(req, name));
  bool blank_date = v.blank_date_with_ocp_date && !header(req, "ocp-date").empty();
  out += fmt::format("{}\n", blank_date ? std::string_view{} : header(req, "Date"));
  for (auto name : kHeadersAfterDate) out += fmt::format("{}\n", header(req, name));
  out += canonical_ocp_headers(req);
  auto target = split_target(req.target);
  out += fmt::format("/{}{}", account, target.path);
  out += canonical_query(parse_query(target.query), v);
  return out;
}

std::string string_to_sign(const ReceivedRequest& req, std::string_view account,
                           bool content_length_zero, bool lowercase_query_names) {
  return string_to_sign(req, account,
                        SignVariant{.content_length_zero = content_length_zero,
                                    .lowercase_query_names = lowercase_query_names});
}

std::vector<std::string> candidate_strings_to_sign(const ReceivedRequest& req,
                                                   std::string_view account) {
  std::vector<std::string> out;
  for_each_candidate(req, account, [&](const std::string& s) {
    out.push_back(s);
    return false;
  });
  return out;
}

Result<std::string> hmac_sha256_base64(std::string_view key_base64, std::string_view text) {
  auto key = base64_decode(key_base64);
  if (!key) return make_error(ErrorKind::Parse, "the account key is not base64");
  auto mac = hmac_sha256(*key, text);
  return base64_encode(std::string_view(reinterpret_cast<const char*>(mac.data()), mac.size()));
}

AuthFailure check_shared_key(const ReceivedRequest& req, std::string_view account,
                             std::string_view key_base64, Timestamp now) {
  ParsedAuthorization auth;
  if (auto f = parse_authorization(header(req, "Authorization"), account, auth)) return *f;
  auto given = base64_decode(auth.signature);
  if (!given || given->size() != kSha256Bytes) {
    return failed(fmt::format(
        "The signature '{}' in the Authorization header is not a base64 HMAC-SHA256 value.",
        auth.signature));
  }
  if (auto f = check_date(req, now)) return *f;
  auto key = base64_decode(key_base64);
  if (!key) return failed("The account key configured on the server is not base64.");

  // The client signed with the account name as it wrote it in the header.
  bool matched = for_each_candidate(req, auth.account, [&](const std::string& s) {
    auto mac = hmac_sha256(*key, s);
    return CRYPTO_memcmp(mac.data(), given->data(), kSha256Bytes) == 0;
  });
  if (matched) return {};
  return failed(fmt::format(
      "The MAC signature found in the HTTP request '{}' is not the same as any computed "
      "signature. Server used following string to sign: '{}'.",
      auth.signature, string_to_sign(req, auth.account, SignVariant{})));
}

bool same_secret(std::string_view given, std::string_view expected) {
  // Digests of both: equal lengths whatever was sent, and a time that tells nothing of either.
  unsigned char a[EVP_MAX_MD_SIZE], b[EVP_MAX_MD_SIZE];
  unsigned int na = 0, nb = 0;
  if (EVP_Digest(given.data(), given.size(), a, &na, EVP_sha256(), nullptr) != 1 ||
      EVP_Digest(expected.data(), expected.size(), b, &nb, EVP_sha256(), nullptr) != 1)
    return false;
  return na == nb && CRYPTO_memcmp(a, b, na) == 0;
}

}  // namespace trainyard::emu
