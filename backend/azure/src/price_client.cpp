// Reading the Retail Prices API: the filter, the pages, retries, and config.json's `prices`.
//
// The API needs no credential, so nothing secret is sent; still, a NextPageLink must stay on the
// configured endpoint (a page must not send trainyard elsewhere) and every URL passes
// check_url_allowed.
#include <algorithm>
#include <cctype>
#include <random>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "azure/prices.hpp"
#include "bearer_credential.hpp"
#include "core/text.hpp"

namespace trainyard::azure {
namespace {

using nlohmann::json;

Error bad_setting(const std::string& source, const std::string& where, const std::string& what) {
  return make_error(ErrorKind::Parse, fmt::format("{}: {}: {}", source, where, what));
}

bool plain_name(const std::string& s) {
  return !s.empty() && s.size() <= 80 && std::all_of(s.begin(), s.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-';
  });
}

// `https://host:port`, lowercased, with the scheme's default port spelled out, so that the API's
// own `https://prices.azure.com:443/…` links match `https://prices.azure.com`.
std::string origin_with_port(std::string_view url) {
  auto sep = url.find("://");
  std::string scheme = ascii_lowercase(sep == std::string_view::npos ? "" : url.substr(0, sep));
  std::string host = ascii_lowercase(url_host(url));
  bool has_port = host.rfind(':') != std::string::npos && host.back() != ']';
  if (!has_port) host += scheme == "https" ? ":443" : ":80";
  return scheme + "://" + host;
}

class PriceReader {
 public:
  PriceReader(HttpClient& http, const PriceClientOptions& options)
      : http_(http), options_(options), rng_(std::random_device{}()) {}

  Result<std::vector<VmPrice>> read_all(std::string url);

 private:
  Result<HttpResponse> get(const std::string& url);
  Result<HttpResponse> attempt(const std::string& url);
  Result<void> check_next(const std::string& next, const std::string& current) const;

  HttpClient& http_;
  const PriceClientOptions& options_;
  std::mt19937_64 rng_;
};

Result<HttpResponse> PriceReader::attempt(const std::string& url) {
  HttpRequest req;
  req.url = url;
  req.timeout = options_.timeout;
  req.headers = {{"Accept", "application/json"}};
  auto r = http_.send(req);
  if (!r)
    return make_error(r.error().kind,
                      fmt::format("prices: GET {}: {}", redact_url(url), r.error().message));
  return r;
}

Result<HttpResponse> PriceReader::get(const std::string& url) {
  TY_TRY(check_url_allowed(url));
  auto r = attempt(url);
  for (int n = 1; n <= options_.retry.max_retries && !http_.cancelled(); ++n) {
    bool again = r ? is_retryable_status(r->status) : r.error().kind == ErrorKind::Network;
    if (!again) break;
    std::this_thread::sleep_for(retry_delay(options_.retry, n, r ? &*r : nullptr, rng_));
    r = attempt(url);
  }
  if (r && r->status != 200) {
    return make_error(ErrorKind::Http,
                      fmt::format("prices: GET {}: HTTP {} {}", redact_url(url), r->status,
                                  first_line_for_message(r->body, 200)));
  }
  return r;
}

Result<void> PriceReader::check_next(const std::string& next, const std::string& current) const {
  if (origin_with_port(next) == origin_with_port(options_.endpoint)) return ok_result();
  return make_error(
      ErrorKind::Parse,
      fmt::format("prices: GET {}: NextPageLink {} leaves {}; not followed", redact_url(current),
                  first_line_for_message(redact_url(next), 200), options_.endpoint));
}

Result<std::vector<VmPrice>> PriceReader::read_all(std::string url) {
  std::vector<VmPrice> rows;
  for (int page = 0; page < options_.max_pages; ++page) {
    auto r = get(url);
    if (!r) return r.error();
    auto parsed = parse_price_page(r->body, "prices: GET " + redact_url(url));
    if (!parsed) return parsed.error();
    rows.insert(rows.end(), parsed->prices.begin(), parsed->prices.end());
    if (parsed->next_link.empty()) return newest_prices(std::move(rows));
    TY_TRY(check_next(parsed->next_link, url));
    url = std::move(parsed->next_link);
  }
  return make_error(ErrorKind::Http, fmt::format("prices: GET {}: more than {} pages",
                                                 redact_url(url), options_.max_pages));
}

}  // namespace

Result<PriceSettings> parse_price_settings(const json& prices, const std::string& source) {
  if (!prices.is_object()) return bad_setting(source, "/prices", "expected an object");
  PriceSettings out;
  for (const auto& item : prices.items()) {
    if (item.key() != "endpoint" && item.key() != "discount")
      return bad_setting(source, "/prices/" + item.key(), "unknown setting");
  }
  if (prices.contains("endpoint")) {
    if (!prices["endpoint"].is_string())
      return bad_setting(source, "/prices/endpoint", "expected a URL");
    out.endpoint = prices["endpoint"].get<std::string>();
    while (!out.endpoint.empty() && out.endpoint.back() == '/') out.endpoint.pop_back();
    if (auto ok = check_url_allowed(out.endpoint); !ok)
      return bad_setting(source, "/prices/endpoint", ok.error().message);
  }
  if (prices.contains("discount")) {
    const json& d = prices["discount"];
    if (!d.is_number() || !(d.get<double>() > 0) || d.get<double>() > 1)
      return bad_setting(source, "/prices/discount",
                         "expected a factor above 0 and at most 1 (0.8 is 20% off)");
    out.discount = d.get<double>();
  }
  return out;
}

Result<void> check_price_query(const PriceQuery& q) {
  if (!plain_name(q.vm_size))
    return make_error(ErrorKind::Usage,
                      fmt::format("--vm-size '{}': expected a VM size such as Standard_NC4as_T4_v3",
                                  first_line_for_message(q.vm_size, 80)));
  if (!q.region.empty() && !plain_name(q.region))
    return make_error(ErrorKind::Usage,
                      fmt::format("--region '{}': expected a region name such as eastus",
                                  first_line_for_message(q.region, 80)));
  return ok_result();
}

std::string price_filter(const PriceQuery& q) {
  // check_price_query keeps quotes out of the values; doubling them is OData's escape anyway.
  auto quoted = [](const std::string& s) {
    std::string out = "'";
    for (char c : s) out += c == '\'' ? std::string("''") : std::string(1, c);
    return out + "'";
  };
  std::string f =
      "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and "
      "armSkuName eq " +
      quoted(arm_sku_name(q.vm_size));
  if (!q.region.empty()) f += " and armRegionName eq " + quoted(ascii_lowercase(q.region));
  return f;
}

Result<std::vector<VmPrice>> fetch_vm_prices(HttpClient& http, const PriceClientOptions& options,
                                             const PriceQuery& q) {
  TY_TRY(check_price_query(q));
  std::string endpoint = options.endpoint;
  while (!endpoint.empty() && endpoint.back() == '/') endpoint.pop_back();
  PriceClientOptions o = options;
  o.endpoint = endpoint;
  std::string url = fmt::format("{}/api/retail/prices?api-version={}&$filter={}", endpoint,
                                kPricesApiVersion, url_encode(price_filter(q)));
  return PriceReader(http, o).read_all(std::move(url));
}

}  // namespace trainyard::azure
