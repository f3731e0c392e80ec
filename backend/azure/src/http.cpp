// URL and header helpers of the HTTP layer: the plain-http rule, percent-encoding, redaction for
// messages and header lookup. The libcurl client itself is in http_curl.cpp.
#include <arpa/inet.h>
#include <curl/curl.h>
#include <netinet/in.h>

#include <memory>
#include <optional>
#include <string>

#include "azure/http.hpp"
#include "core/text.hpp"

namespace trainyard::azure {

namespace {

bool is_unreserved(unsigned char c) {
  return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' ||
         c == '.' || c == '_' || c == '~';
}

struct UrlParts {
  std::string scheme;  // lower case
  std::string host;    // IPv4 normalised to dotted quad, IPv6 in brackets
  std::string port;    // empty when the URL gives none
};

struct CurluDeleter {
  void operator()(CURLU* u) const { curl_url_cleanup(u); }
};

std::string curlu_part(CURLU* u, CURLUPart part) {
  char* text = nullptr;
  if (curl_url_get(u, part, &text, 0) != CURLUE_OK || text == nullptr) return {};
  std::string out(text);
  curl_free(text);
  return out;
}

// Parses with libcurl's own parser, so the loopback rule judges the host that curl will connect
// to (it also normalises `127.1`, `0x7f000001` and `[0::1]`), not a look-alike.
std::optional<UrlParts> parse_url(std::string_view url) {
  if (url.find('\0') != std::string_view::npos) return std::nullopt;
  std::unique_ptr<CURLU, CurluDeleter> u(curl_url());
  if (!u) return std::nullopt;
  std::string text(url);
  if (curl_url_set(u.get(), CURLUPART_URL, text.c_str(), 0) != CURLUE_OK) return std::nullopt;
  UrlParts parts{curlu_part(u.get(), CURLUPART_SCHEME), curlu_part(u.get(), CURLUPART_HOST),
                 curlu_part(u.get(), CURLUPART_PORT)};
  if (parts.scheme.empty() || parts.host.empty()) return std::nullopt;
  return parts;
}

// curl reads `http:///x` as host `x`; a URL must name its host right after `//`.
bool has_authority(std::string_view url) {
  size_t sep = url.find("://");
  if (sep == std::string_view::npos || sep + 3 >= url.size()) return false;
  char first = url[sep + 3];
  return first != '/' && first != '?' && first != '#';
}

bool is_loopback_v6(std::string_view bracketed) {
  std::string inner(bracketed.substr(1, bracketed.size() - 2));
  in6_addr addr{};
  if (inet_pton(AF_INET6, inner.c_str(), &addr) != 1) return false;
  if (IN6_IS_ADDR_LOOPBACK(&addr)) return true;
  return IN6_IS_ADDR_V4MAPPED(&addr) && addr.s6_addr[12] == 127;
}

bool is_loopback_host(std::string_view host) {
  if (iequals(host, "localhost")) return true;
  if (host.size() > 2 && host.front() == '[' && host.back() == ']') return is_loopback_v6(host);
  in_addr addr{};
  std::string text(host);
  return inet_pton(AF_INET, text.c_str(), &addr) == 1 && (ntohl(addr.s_addr) >> 24) == 127;
}

Error url_usage_error(std::string_view url, std::string_view why) {
  std::string shown = url.empty() ? std::string("\"\"") : redact_url(url);
  return make_error(ErrorKind::Usage, shown + ": " + std::string(why));
}

}  // namespace

std::string find_header(const Headers& headers, std::string_view name) {
  for (const auto& [key, value] : headers) {
    if (iequals(key, name)) return value;
  }
  return {};
}

Result<void> check_url_allowed(std::string_view url) {
  auto parts = parse_url(url);
  if (!parts || !has_authority(url)) {
    return url_usage_error(url, "not an absolute URL with a scheme and a host");
  }
  if (parts->scheme == "https") return ok_result();
  if (parts->scheme != "http") return url_usage_error(url, "only https URLs are allowed");
  if (is_loopback_host(parts->host)) return ok_result();
  return url_usage_error(url, "plain http is allowed only on loopback; use https");
}

std::string url_encode(std::string_view s) {
  static constexpr char kHex[] = "0123456789ABCDEF";
  std::string out;
  out.reserve(s.size());
  for (char c : s) {
    auto byte = static_cast<unsigned char>(c);
    if (is_unreserved(byte)) {
      out += c;
      continue;
    }
    out += '%';
    out += kHex[byte >> 4];
    out += kHex[byte & 0x0f];
  }
  return out;
}

std::string url_encode_path(std::string_view path) {
  std::string out;
  size_t start = 0;
  for (size_t end; (end = path.find('/', start)) != std::string_view::npos; start = end + 1)
    out += url_encode(path.substr(start, end - start)) + "/";
  return out + url_encode(path.substr(start));
}

std::string redact_url(std::string_view url) {
  url = url.substr(0, url.find_first_of("?#"));
  size_t sep = url.find("://");
  size_t host_from = sep == std::string_view::npos ? 0 : sep + 3;
  size_t authority_end = std::min(url.find('/', host_from), url.size());
  std::string_view authority = url.substr(host_from, authority_end - host_from);
  size_t at = authority.rfind('@');
  if (at != std::string_view::npos) authority.remove_prefix(at + 1);
  std::string out;
  for (std::string_view piece : {url.substr(0, host_from), authority, url.substr(authority_end)}) {
    // Control characters would break the one-line message.
    for (char c : piece) out += static_cast<unsigned char>(c) < 0x20 ? '?' : c;
  }
  return out;
}

std::string url_host(std::string_view url) {
  auto parts = parse_url(url);
  if (!parts) return redact_url(url);
  return parts->port.empty() ? parts->host : parts->host + ":" + parts->port;
}

}  // namespace trainyard::azure
