#include "auto_storage.hpp"

#include <cctype>
#include <map>

#include <fmt/format.h>

#include "emulator/emulator.hpp"
#include "mac.hpp"
#include "text.hpp"

namespace trainyard::emu {
namespace {

// Azurite's well-known development account (published in its documentation).
constexpr const char* kDevAccount = "devstoreaccount1";
constexpr const char* kDevKey =
    "Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==";
constexpr const char* kDevEndpoint = "http://127.0.0.1:10000/devstoreaccount1";
constexpr const char* kSasVersion = "2021-08-06";

Error refused(const std::string& what) {
  return make_error(ErrorKind::Usage, "--auto-storage: " + what);
}

// Key (lower case) → value; the value may hold `=` (a base64 key).
std::map<std::string, std::string> parts_of(std::string_view text) {
  std::map<std::string, std::string> out;
  size_t start = 0;
  while (start < text.size()) {
    size_t end = text.find(';', start);
    if (end == std::string_view::npos) end = text.size();
    auto part = text.substr(start, end - start);
    auto eq = part.find('=');
    if (eq != std::string_view::npos)
      out[ascii_lowercase(std::string(part.substr(0, eq)))] = std::string(part.substr(eq + 1));
    start = end + 1;
  }
  return out;
}

// `http://127.0.0.1:10000/acct` (no trailing slash) on a loopback address.
bool loopback_http(const std::string& url) {
  const std::string scheme = "http://";
  if (url.rfind(scheme, 0) != 0) return false;
  auto host_end = url.find_first_of(":/", scheme.size());
  std::string host = url.substr(scheme.size(), host_end - scheme.size());
  if (host.size() > 2 && host.front() == '[') host = host.substr(1, host.size() - 2);
  return is_loopback_address(host);
}

std::string sas_time(Timestamp t) {
  return format_iso8601(std::chrono::floor<std::chrono::seconds>(t)).substr(0, 19) + "Z";
}

std::string url_encode(std::string_view s) {
  std::string out;
  for (unsigned char c : s) {
    if (std::isalnum(c) || c == '-' || c == '_' || c == '.' || c == '~')
      out += static_cast<char>(c);
    else
      out += fmt::format("%{:02X}", c);
  }
  return out;
}

}  // namespace

Result<AutoStorage> parse_auto_storage(std::string_view connection_string) {
  auto parts = parts_of(connection_string);
  if (ascii_lowercase(parts["usedevelopmentstorage"]) == "true")
    return AutoStorage{kDevAccount, kDevKey, kDevEndpoint};
  AutoStorage s{parts["accountname"], parts["accountkey"], parts["blobendpoint"]};
  if (s.account.empty()) return refused("the connection string names no AccountName");
  if (s.key_base64.empty()) return refused("the connection string has no AccountKey");
  if (!base64_decode(s.key_base64)) return refused("its AccountKey is not base64");
  while (!s.blob_endpoint.empty() && s.blob_endpoint.back() == '/') s.blob_endpoint.pop_back();
  if (!loopback_http(s.blob_endpoint))
    return refused("its BlobEndpoint must be a loopback http URL (the emulator reaches no other)");
  return s;
}

// The service SAS StringToSign of version 2020-12-06 and later: sixteen fields.
std::string auto_storage_container_url(const AutoStorage& s, const std::string& container,
                                       Timestamp now) {
  const std::string st = sas_time(now - std::chrono::minutes(5));
  const std::string se = sas_time(now + std::chrono::hours(1));
  const std::string resource = "/blob/" + s.account + "/" + container;
  const std::string to_sign = fmt::format("rl\n{}\n{}\n{}\n\n\nhttps,http\n{}\nc\n\n\n\n\n\n\n", st,
                                          se, resource, kSasVersion);
  auto mac = hmac_sha256(*base64_decode(s.key_base64), to_sign);
  std::string sig =
      base64_encode(std::string_view(reinterpret_cast<const char*>(mac.data()), mac.size()));
  return fmt::format("{}/{}?sv={}&sr=c&sp=rl&st={}&se={}&spr=https,http&sig={}", s.blob_endpoint,
                     url_encode(container), kSasVersion, url_encode(st), url_encode(se),
                     url_encode(sig));
}

}  // namespace trainyard::emu
