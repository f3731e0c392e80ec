// Lists fetched page body by page body: each page through BatchClient::call (signed, retried), a
// next-page link taken apart into its path and query (its api-version is the client's own).
#include <fmt/format.h>

#include "azure/http.hpp"
#include "azure/task_page.hpp"

namespace trainyard::azure {
namespace {

int hex_value(char c) {
  if (c >= '0' && c <= '9') return c - '0';
  if (c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

// Percent-decodes a query component; '+' stays '+' (call() encodes it again as %2B).
std::string url_decode(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  for (std::size_t i = 0; i < s.size(); ++i) {
    int hi = 0, lo = 0;
    if (s[i] == '%' && i + 2 < s.size() && (hi = hex_value(s[i + 1])) >= 0 &&
        (lo = hex_value(s[i + 2])) >= 0) {
      out += static_cast<char>(hi * 16 + lo);
      i += 2;
    } else {
      out += s[i];
    }
  }
  return out;
}

// The path and query of a next-page link, which must be on `endpoint`.
Result<std::pair<std::string, Query>> split_link(const std::string& endpoint,
                                                 const std::string& link) {
  if (link.rfind(endpoint + "/", 0) != 0)
    return make_error(ErrorKind::Parse, "odata.nextLink leaves the account's endpoint");
  const std::string rest = link.substr(endpoint.size());
  const auto q = rest.find('?');
  std::pair<std::string, Query> out{rest.substr(0, q), {}};
  std::string_view query = q == std::string::npos ? "" : std::string_view(rest).substr(q + 1);
  while (!query.empty()) {
    const auto amp = query.find('&');
    const std::string_view part = query.substr(0, amp);
    const auto eq = part.find('=');
    std::string key = url_decode(part.substr(0, eq));
    if (!part.empty() && key != "api-version")
      out.second.emplace_back(std::move(key),
                              eq == std::string::npos ? "" : url_decode(part.substr(eq + 1)));
    query = amp == std::string::npos ? "" : query.substr(amp + 1);
  }
  return out;
}

Result<void> follow(BatchClient& client, const std::string& what, Result<HttpResponse> r,
                    const OnBody& on_body) {
  while (true) {
    if (!r) return r.error();
    auto next = on_body(r->body);
    if (!next) return next.error();
    if (next->empty()) return {};
    auto at = split_link(client.options().endpoint, *next);
    if (!at) return make_error(ErrorKind::Parse, fmt::format("{}: {}", what, at.error().message));
    r = client.call("GET", at->first, at->second);
  }
}

}  // namespace

Result<void> list_bodies(BatchClient& client, const std::string& path, const Query& query,
                         const OnBody& on_body) {
  return follow(client, path, client.call("GET", path, query), on_body);
}

Result<void> list_bodies_from(BatchClient& client, const std::string& link, const OnBody& on_body) {
  auto at = split_link(client.options().endpoint, link);
  if (!at) return make_error(ErrorKind::Parse, fmt::format("{}: {}", link, at.error().message));
  return follow(client, at->first, client.call("GET", at->first, at->second), on_body);
}

}  // namespace trainyard::azure
