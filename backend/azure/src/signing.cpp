// Shared signing helpers (see signing.hpp). Written from the protocol descriptions alone: the
// emulator's verifier must stay an independent judge, so nothing here is shared with it.
#include "signing.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdint>
#include <ctime>
#include <map>
#include <vector>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/text.hpp"

namespace trainyard::azure::signing {

namespace {

int base64_value(char c) {
  if (c >= 'A' && c <= 'Z') return c - 'A';
  if (c >= 'a' && c <= 'z') return c - 'a' + 26;
  if (c >= '0' && c <= '9') return c - '0' + 52;
  if (c == '+') return 62;
  if (c == '/') return 63;
  return -1;
}

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

struct UrlParts {
  std::string_view path;   // as sent, still percent-encoded
  std::string_view query;  // without the `?`
};

UrlParts split_url(std::string_view url) {
  size_t scheme = url.find("://");
  size_t start = scheme == std::string_view::npos ? 0 : scheme + 3;
  url = url.substr(0, url.find('#'));
  size_t path_at = std::min(url.find('/', start), url.find('?', start));
  if (path_at == std::string_view::npos) return {};
  std::string_view rest = url.substr(path_at);
  size_t q = rest.find('?');
  if (q == std::string_view::npos) return {rest, {}};
  return {rest.substr(0, q), rest.substr(q + 1)};
}

}  // namespace

// Percent-decoding as the server does it; `+` stays `+` (url_encode never emits it for a space),
// and a malformed escape is kept as written.
std::string percent_decode(std::string_view s) {
  std::string out;
  for (size_t i = 0; i < s.size(); ++i) {
    int hi = (s[i] == '%' && i + 2 < s.size()) ? hex_value(s[i + 1]) : -1;
    int lo = hi >= 0 ? hex_value(s[i + 2]) : -1;
    if (lo < 0) {
      out += s[i];
      continue;
    }
    out += static_cast<char>(hi * 16 + lo);
    i += 2;
  }
  return out;
}

std::string uppercase(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = (c >= 'a' && c <= 'z') ? static_cast<char>(c - 'a' + 'A') : c;
  return out;
}

// Strict RFC 4648 decoding: OpenSSL's EVP_DecodeBlock accepts stray whitespace and counts padding
// as data, and a key typo should be reported, not turned into a wrong signature.
std::optional<std::string> base64_decode(std::string_view in) {
  if (in.empty() || in.size() % 4 != 0) return std::nullopt;
  size_t pad = in.ends_with("==") ? 2 : in.ends_with('=') ? 1 : 0;
  std::string out;
  uint32_t acc = 0;
  for (size_t i = 0; i < in.size() - pad; ++i) {
    int v = base64_value(in[i]);
    if (v < 0) return std::nullopt;
    acc = (acc << 6) | static_cast<uint32_t>(v);
    if (i % 4 == 3) {
      out += {static_cast<char>(acc >> 16), static_cast<char>(acc >> 8), static_cast<char>(acc)};
    }
  }
  if (pad == 1) out += {static_cast<char>(acc >> 10), static_cast<char>(acc >> 2)};
  if (pad == 2) out += static_cast<char>(acc >> 4);
  return out;
}

std::string base64_encode(const unsigned char* data, size_t n) {
  std::string out(4 * ((n + 2) / 3), '\0');
  int len =
      EVP_EncodeBlock(reinterpret_cast<unsigned char*>(out.data()), data, static_cast<int>(n));
  out.resize(static_cast<size_t>(len));
  return out;
}

// RFC 1123 in GMT with English names whatever the locale (`Fri, 17 Feb 2017 00:00:00 GMT`).
std::string rfc1123(Timestamp now) {
  static constexpr std::array<const char*, 7> kDays{"Sun", "Mon", "Tue", "Wed",
                                                    "Thu", "Fri", "Sat"};
  static constexpr std::array<const char*, 12> kMonths{"Jan", "Feb", "Mar", "Apr", "May", "Jun",
                                                       "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"};
  auto secs = std::chrono::floor<std::chrono::seconds>(now).time_since_epoch().count();
  std::time_t t = static_cast<std::time_t>(secs);
  std::tm tm{};
  gmtime_r(&t, &tm);
  return fmt::format("{}, {:02} {} {:04} {:02}:{:02}:{:02} GMT",
                     kDays[static_cast<size_t>(tm.tm_wday)], tm.tm_mday,
                     kMonths[static_cast<size_t>(tm.tm_mon)], tm.tm_year + 1900, tm.tm_hour,
                     tm.tm_min, tm.tm_sec);
}

// `/account/path` then `\nname:value` per parameter, names lowercased and sorted, values decoded;
// a repeated name lists its values comma-separated, as Storage's SharedKey does.
std::string canonicalized_resource(std::string_view account, std::string_view url) {
  UrlParts parts = split_url(url);
  std::string out = fmt::format("/{}{}", account, parts.path.empty() ? "/" : parts.path);
  std::map<std::string, std::vector<std::string>> params;
  for (std::string_view q = parts.query; !q.empty();) {
    std::string_view item = q.substr(0, q.find('&'));
    q.remove_prefix(std::min(q.size(), item.size() + 1));
    if (item.empty()) continue;
    size_t eq = item.find('=');
    std::string_view value =
        eq == std::string_view::npos ? std::string_view{} : item.substr(eq + 1);
    params[ascii_lowercase(percent_decode(item.substr(0, eq)))].push_back(percent_decode(value));
  }
  for (auto& [name, values] : params) {
    std::sort(values.begin(), values.end());
    out += fmt::format("\n{}:{}", name, fmt::join(values, ","));
  }
  return out;
}

std::string first_header(const Headers& headers, std::string_view name) {
  for (const auto& [k, v] : headers) {
    if (iequals(k, name)) return std::string(trim(v));
  }
  return {};
}

std::string hmac_sha256_base64(const std::string& key, const std::string& text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
  unsigned int len = 0;
  HMAC(EVP_sha256(), key.data(), static_cast<int>(key.size()),
       reinterpret_cast<const unsigned char*>(text.data()), text.size(), mac.data(), &len);
  return base64_encode(mac.data(), len);
}

}  // namespace trainyard::azure::signing
