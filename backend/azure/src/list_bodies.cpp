// Lists fetched page body by page body: each page through BatchClient::call (signed, retried), a
// next-page link taken apart into its path and query (its api-version is the client's own).
#include <fmt/format.h>

#include <future>
#include <optional>
#include <system_error>

#include "azure/http.hpp"
#include "azure/task_page.hpp"
#include "signing.hpp"

namespace trainyard::azure {
namespace {

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
    std::string key = signing::percent_decode(part.substr(0, eq));
    if (!part.empty() && key != "api-version")
      out.second.emplace_back(std::move(key), eq == std::string::npos
                                                  ? ""
                                                  : signing::percent_decode(part.substr(eq + 1)));
    query = amp == std::string::npos ? "" : query.substr(amp + 1);
  }
  return out;
}

// A JSON string's text from its opening quote; none when it holds an escape other than \/, \"
// and \\ (a next-page link needs no other).
std::optional<std::string> json_string_at(std::string_view s, std::size_t quote) {
  std::string out;
  for (std::size_t i = quote + 1; i < s.size(); ++i) {
    if (s[i] == '"') return out;
    if (s[i] != '\\') {
      out += s[i];
      continue;
    }
    if (++i >= s.size() || (s[i] != '/' && s[i] != '"' && s[i] != '\\')) return std::nullopt;
    out += s[i];
  }
  return std::nullopt;
}

// The next-page link as Batch writes it, after the page's value array: the last
// "odata.nextLink" member of the body, read without parsing the page. Only a guess, which the
// page's parse confirms.
std::optional<std::string> trailing_next_link(std::string_view body) {
  constexpr std::string_view kKey = "\"odata.nextLink\"";
  auto key = body.rfind(kKey);
  if (key == std::string_view::npos) return std::nullopt;
  auto colon = body.find_first_not_of(" \t\r\n", key + kKey.size());
  if (colon == std::string_view::npos || body[colon] != ':') return std::nullopt;
  auto quote = body.find_first_not_of(" \t\r\n", colon + 1);
  if (quote == std::string_view::npos || body[quote] != '"') return std::nullopt;
  return json_string_at(body, quote);
}

// The request for the page at `link`, started on a thread of its own; invalid when the link is
// not the account's or no thread could be started. The client is used by nothing else until the
// answer is taken.
std::future<Result<HttpResponse>> ask_ahead(BatchClient& client, const std::string& link) {
  auto at = split_link(client.options().endpoint, link);
  if (!at) return {};
  try {
    return std::async(std::launch::async, [&client, at = std::move(*at)]() -> Result<HttpResponse> {
      try {
        return client.call("GET", at.first, at.second);
      } catch (const std::exception& e) {
        return make_error(ErrorKind::Internal, e.what());
      }
    });
  } catch (const std::system_error&) {
    return {};
  }
}

// Each page is parsed while the next one is already asked for, from the link read off the end
// of its body: the service builds and sends a page as long as the client takes to parse one. A
// parse that finds another link drops the early answer and asks for the link it found.
Result<void> follow(BatchClient& client, const std::string& what, Result<HttpResponse> r,
                    const OnBody& on_body) {
  while (true) {
    if (!r) return r.error();
    auto guess = trailing_next_link(r->body);
    auto ahead = guess ? ask_ahead(client, *guess) : std::future<Result<HttpResponse>>{};
    auto next = on_body(r->body);
    bool guessed = ahead.valid() && next && *next == *guess;
    if (ahead.valid() && !guessed) ahead.wait();  // the client is free again
    if (!next) return next.error();
    if (next->empty()) return {};
    if (guessed) {
      r = ahead.get();
      continue;
    }
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
