// The Retail Prices API: pages parsed from fixtures in the API's shape, the rows kept and left
// out, paging over a loopback server, and config.json's `prices`.
#include <gtest/gtest.h>

#include <algorithm>

#include "azure/prices.hpp"
#include "fake_prices_server.hpp"

namespace trainyard::azure::prices_test {
namespace {

using testing_prices::FakePrices;
using testing_prices::price_fixture;
constexpr const char* kSize = "Standard_NC4as_T4_v3";

// The price of (region, kind) in `rows`, or -1 when there is none.
double price_of(const std::vector<VmPrice>& rows, const std::string& region, PriceKind kind) {
  auto it = std::find_if(rows.begin(), rows.end(),
                         [&](const VmPrice& p) { return p.region == region && p.kind == kind; });
  return it == rows.end() ? -1 : it->hourly;
}

TEST(PricePage, KeepsLinuxConsumptionRowsByKind) {
  // Page 1: dedicated 0.526, Windows 0.71, Spot 0.1578, Windows Spot 0.0421, Low Priority
  // 0.1052, a reservation and a dev/test rate: three rows stay.
  auto page = parse_price_page(price_fixture("page1.json"), "page1.json");
  ASSERT_TRUE(page.ok()) << page.error().message;
  ASSERT_EQ(page->prices.size(), 3u);
  EXPECT_EQ(price_of(page->prices, "eastus", PriceKind::Dedicated), 0.526);
  EXPECT_EQ(price_of(page->prices, "eastus", PriceKind::Spot), 0.1578);
  EXPECT_EQ(price_of(page->prices, "eastus", PriceKind::LowPriority), 0.1052);
  for (const auto& p : page->prices) {
    EXPECT_EQ(p.vm_size, kSize);
    EXPECT_EQ(p.currency, "USD");
  }
  EXPECT_EQ(page->next_link,
            "https://prices.azure.com:443/api/retail/prices?api-version=2023-01-01-preview&"
            "$filter=serviceName%20eq%20%27Virtual%20Machines%27%20and%20priceType%20eq%20%27"
            "Consumption%27%20and%20armSkuName%20eq%20%27Standard_NC4as_T4_v3%27&$skip=7");
}

TEST(PricePage, PricesPerOtherUnitsAreHourlyOrLeftOut) {
  // Page 2: japaneast's low-priority row is 1.504 per "10 Hours"; westeurope's is "1/Month".
  auto page = parse_price_page(price_fixture("page2.json"), "page2.json");
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_DOUBLE_EQ(price_of(page->prices, "japaneast", PriceKind::LowPriority), 0.1504);
  EXPECT_EQ(price_of(page->prices, "westeurope", PriceKind::LowPriority), -1);
  EXPECT_EQ(price_of(page->prices, "westeurope", PriceKind::Spot), 0.6124);  // not Windows' 0.05
  EXPECT_EQ(page->prices.size(), 6u);
}

TEST(PricePage, TheLastPageHasNoLink) {
  auto page = parse_price_page(price_fixture("page3.json"), "page3.json");
  ASSERT_TRUE(page.ok()) << page.error().message;
  EXPECT_EQ(page->next_link, "");
  ASSERT_EQ(page->prices.size(), 1u);
  EXPECT_EQ(page->prices[0].region, "southcentralus");
}

TEST(PricePage, MalformedPagesNameTheSourceAndPlace) {
  auto syntax = parse_price_page("{\"Items\": [\n  {\"retailPrice\": 1,]}", "GET prices");
  ASSERT_FALSE(syntax.ok());
  EXPECT_EQ(syntax.error().message.rfind("GET prices:2:", 0), 0u) << syntax.error().message;
  EXPECT_EQ(syntax.error().message.find('\n'), std::string::npos);

  auto no_items = parse_price_page(R"({"Count": 0})", "p");
  ASSERT_FALSE(no_items.ok());
  EXPECT_EQ(no_items.error().message, "p: /Items: expected the list of prices");

  auto bad_price = parse_price_page(
      R"({"Items": [{"type": "Consumption", "retailPrice": 1, "unitOfMeasure": "1 Hour"},
                    {"type": "Consumption", "retailPrice": "cheap"}]})",
      "p");
  ASSERT_FALSE(bad_price.ok());
  EXPECT_EQ(bad_price.error().message, "p: /Items/1/retailPrice: expected a number");

  auto bad_date = parse_price_page(
      R"({"Items": [{"type": "Consumption", "retailPrice": 1, "unitOfMeasure": "1 Hour",
          "armRegionName": "x", "armSkuName": "s", "effectiveStartDate": "soon"}]})",
      "p");
  ASSERT_FALSE(bad_date.ok());
  EXPECT_EQ(bad_date.error().message.rfind("p: /Items/0/effectiveStartDate: ", 0), 0u)
      << bad_date.error().message;

  auto bad_link = parse_price_page(R"({"Items": [], "NextPageLink": 3})", "p");
  ASSERT_FALSE(bad_link.ok());
  EXPECT_EQ(bad_link.error().message, "p: /NextPageLink: expected a link or null");
}

TEST(PricePage, RemoteTextIsMadeInert) {
  auto page = parse_price_page(
      "{\"Items\": [{\"type\": \"Consumption\", \"retailPrice\": 1, \"unitOfMeasure\": "
      "\"1 Hour\", \"armRegionName\": \"east\\u001b]0;x\\u0007us\", \"armSkuName\": \"s\"}]}",
      "p");
  ASSERT_TRUE(page.ok()) << page.error().message;
  ASSERT_EQ(page->prices.size(), 1u);
  EXPECT_EQ(page->prices[0].region.find('\x1b'), std::string::npos) << page->prices[0].region;
}

TEST(PricePage, TheNewestRowOfEachRegionAndKindWins) {
  // eastus Spot is 0.2104 from 2022-02-01 on page 2 and 0.1578 from 2024-01-01 on page 1.
  std::vector<VmPrice> rows;
  for (const char* name : {"page2.json", "page1.json", "page3.json"}) {
    auto page = parse_price_page(price_fixture(name), name);
    ASSERT_TRUE(page.ok()) << page.error().message;
    rows.insert(rows.end(), page->prices.begin(), page->prices.end());
  }
  auto newest = newest_prices(rows);
  EXPECT_EQ(newest.size(), 9u);
  EXPECT_EQ(price_of(newest, "eastus", PriceKind::Spot), 0.1578);
  EXPECT_EQ(newest.front().region, "eastus");
  EXPECT_EQ(newest.front().kind, PriceKind::Dedicated);
  EXPECT_EQ(newest.back().region, "westeurope");
}

TEST(PriceFilter, NamesTheServiceConsumptionSizeAndRegion) {
  EXPECT_EQ(price_filter({kSize, ""}),
            "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armSkuName eq "
            "'Standard_NC4as_T4_v3'");
  EXPECT_EQ(price_filter({kSize, "eastus"}),
            "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armSkuName eq "
            "'Standard_NC4as_T4_v3' and armRegionName eq 'eastus'");
  // Batch reports vmSize in lowercase, but the API's filter values are case-sensitive.
  EXPECT_EQ(price_filter({"standard_nc4as_t4_v3", "WestEurope"}),
            "serviceName eq 'Virtual Machines' and priceType eq 'Consumption' and armSkuName eq "
            "'Standard_NC4as_T4_v3' and armRegionName eq 'westeurope'");
  EXPECT_FALSE(check_price_query({"x' or 1 eq 1 or 'a", ""}).ok());
  EXPECT_FALSE(check_price_query({kSize, "east us"}).ok());
  EXPECT_TRUE(check_price_query({kSize, "eastus"}).ok());
}

TEST(ArmSkuName, SpellsASizeAsTheApiDoes) {
  struct Case {
    const char* given;
    const char* expected;
  } cases[] = {
      {"standard_nc4as_t4_v3", "Standard_NC4as_T4_v3"},
      {"Standard_NC4as_T4_v3", "Standard_NC4as_T4_v3"},
      {"STANDARD_D2S_V3", "Standard_D2s_v3"},
      {"standard_ds3_v2", "Standard_DS3_v2"},
      {"standard_nc24ads_a100_v4", "Standard_NC24ads_A100_v4"},
      {"standard_nd96isr_mi300x_v5", "Standard_ND96isr_MI300X_v5"},
      {"standard_e64-32s_v3", "Standard_E64-32s_v3"},
      {"standard_m128ms", "Standard_M128ms"},
      {"standard_d2_v2_promo", "Standard_D2_v2_Promo"},
      {"basic_a0", "Basic_A0"},
  };
  for (const auto& c : cases) EXPECT_EQ(arm_sku_name(c.given), c.expected) << c.given;
}

PriceClientOptions fast(const std::string& endpoint) {
  PriceClientOptions o;
  o.endpoint = endpoint;
  o.retry.base = std::chrono::milliseconds(1);
  o.timeout = std::chrono::milliseconds(5000);
  return o;
}

TEST(FetchPrices, FollowsEveryPage) {
  FakePrices server;
  HttpClient http;
  auto prices = fetch_vm_prices(http, fast(server.endpoint()), {kSize, ""});
  ASSERT_TRUE(prices.ok()) << prices.error().message;
  EXPECT_EQ(server.requests(), 3);
  EXPECT_EQ(prices->size(), 9u);
  EXPECT_EQ(price_of(*prices, "southcentralus", PriceKind::Dedicated), 0.526);  // page 3
  EXPECT_EQ(price_of(*prices, "southcentralus", PriceKind::Spot), -1);
  EXPECT_EQ(server.filters().front(), price_filter({kSize, ""}));
}

TEST(FetchPrices, AskedForARegionAsksTheServiceForIt) {
  FakePrices server;
  HttpClient http;
  auto prices = fetch_vm_prices(http, fast(server.endpoint()), {kSize, "japaneast"});
  ASSERT_TRUE(prices.ok()) << prices.error().message;
  EXPECT_EQ(server.filters(), std::vector<std::string>{price_filter({kSize, "japaneast"})});
  ASSERT_EQ(prices->size(), 3u);
  EXPECT_EQ(price_of(*prices, "japaneast", PriceKind::Spot), 0.3008);
}

TEST(FetchPrices, RetriesABusyService) {
  FakePrices server;
  server.fail_next(2);
  HttpClient http;
  auto prices = fetch_vm_prices(http, fast(server.endpoint()), {kSize, ""});
  ASSERT_TRUE(prices.ok()) << prices.error().message;
  EXPECT_EQ(server.requests(), 5);
}

TEST(FetchPrices, ABusyServiceAfterTheRetriesIsAnHttpError) {
  FakePrices server;
  server.fail_next(3);
  HttpClient http;
  auto prices = fetch_vm_prices(http, fast(server.endpoint()), {kSize, ""});
  ASSERT_FALSE(prices.ok());
  EXPECT_EQ(prices.error().kind, ErrorKind::Http);
  EXPECT_NE(prices.error().message.find("HTTP 503 busy"), std::string::npos)
      << prices.error().message;
}

TEST(FetchPrices, ALinkElsewhereIsNotFollowed) {
  FakePrices server;
  server.send_next_to("http://127.0.0.2:9");
  HttpClient http;
  auto prices = fetch_vm_prices(http, fast(server.endpoint()), {kSize, ""});
  ASSERT_FALSE(prices.ok());
  EXPECT_EQ(server.requests(), 1);
  EXPECT_NE(prices.error().message.find("NextPageLink http://127.0.0.2:9/api/retail/prices leaves"),
            std::string::npos)
      << prices.error().message;
}

TEST(FetchPrices, AnUnreachableServiceIsANetworkError) {
  std::string endpoint;
  {
    FakePrices gone;
    endpoint = gone.endpoint();
  }
  HttpClient http;
  auto prices = fetch_vm_prices(http, fast(endpoint), {kSize, ""});
  ASSERT_FALSE(prices.ok());
  EXPECT_EQ(prices.error().kind, ErrorKind::Network);
  EXPECT_EQ(prices.error().message.rfind("prices: GET " + endpoint + "/api/retail/prices: ", 0), 0u)
      << prices.error().message;
}

TEST(FetchPrices, PlainHttpOnlyOnLoopback) {
  HttpClient http;
  auto prices = fetch_vm_prices(http, fast("http://prices.example.com"), {kSize, ""});
  ASSERT_FALSE(prices.ok());
  EXPECT_EQ(prices.error().kind, ErrorKind::Usage);
}

TEST(PriceSettingsTest, ReadsEndpointAndDiscount) {
  auto s = parse_price_settings(
      nlohmann::json::parse(R"({"endpoint": "http://127.0.0.1:8080/", "discount": 0.8})"), "c");
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->endpoint, "http://127.0.0.1:8080");
  EXPECT_EQ(s->discount, 0.8);
  auto defaults = parse_price_settings(nlohmann::json::object(), "c");
  ASSERT_TRUE(defaults.ok());
  EXPECT_EQ(defaults->endpoint, "https://prices.azure.com");
  EXPECT_EQ(defaults->discount, 1.0);
}

TEST(PriceSettingsTest, MistakesNameThePlace) {
  auto message = [](const char* text) {
    auto s = parse_price_settings(nlohmann::json::parse(text), "config.json");
    return s.ok() ? std::string("accepted") : s.error().message;
  };
  for (const char* d : {R"({"discount": 0})", R"({"discount": 1.2})", R"({"discount": -0.5})",
                        R"({"discount": "20%"})"})
    EXPECT_EQ(message(d).rfind("config.json: /prices/discount: expected a factor above 0", 0), 0u)
        << d;
  EXPECT_EQ(message(R"({"discount": 1})"), "accepted");
  EXPECT_EQ(message(R"({"endpoint": "http://prices.example.com"})")
                .rfind("config.json: /prices/endpoint: ", 0),
            0u);
  EXPECT_EQ(message(R"({"currency": "EUR"})"), "config.json: /prices/currency: unknown setting");
}

}  // namespace
}  // namespace trainyard::azure::prices_test
