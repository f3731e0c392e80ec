// One page of the Retail Prices API: `{"BillingCurrency", …, "Items": [...], "NextPageLink",
// "Count"}`, reduced to the hourly Linux consumption rows of virtual machines.
#include <algorithm>
#include <cmath>
#include <tuple>

#include <fmt/format.h>

#include "azure/prices.hpp"
#include "core/json_error.hpp"
#include "core/sanitizer.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {
namespace {

using nlohmann::json;

// A row that cannot be read: the place is a JSON pointer into the page.
Error bad_row(const std::string& source, const std::string& where, const std::string& what) {
  return make_error(ErrorKind::Parse, fmt::format("{}: {}: {}", source, where, what));
}

// An optional string member, sanitized (it reaches the store and the terminal).
Result<std::string> text_member(const json& row, const char* key, const std::string& source,
                                const std::string& where) {
  auto it = row.find(key);
  if (it == row.end() || it->is_null()) return std::string();
  if (!it->is_string()) return bad_row(source, where + "/" + key, "expected a string");
  return sanitize_text(it->get<std::string>());
}

bool ends_with(std::string_view s, std::string_view tail) {
  return s.size() >= tail.size() && s.substr(s.size() - tail.size()) == tail;
}

// Hours in one unit of measure: `1 Hour` → 1, `10 Hours` → 10, `1/Hour` → 1; 0 for anything that
// is not a span of hours (`1/Month`, `1 GB/Month`).
double hours_per_unit(std::string_view unit) {
  if (unit == "1/Hour") return 1;
  std::size_t digits = 0;
  while (digits < unit.size() && unit[digits] >= '0' && unit[digits] <= '9') ++digits;
  if (digits == 0 || digits > 6) return 0;
  std::string_view rest = unit.substr(digits);
  if (rest != " Hour" && rest != " Hours") return 0;
  return std::stod(std::string(unit.substr(0, digits)));
}

PriceKind kind_of_sku(std::string_view sku) {
  if (sku.find("Low Priority") != std::string_view::npos) return PriceKind::LowPriority;
  if (sku.find("Spot") != std::string_view::npos) return PriceKind::Spot;
  return PriceKind::Dedicated;
}

// The row's price per hour, or nullopt when it is not an hourly price.
Result<std::optional<double>> hourly_price(const json& row, double hours, const std::string& source,
                                           const std::string& where) {
  auto it = row.find("retailPrice");
  if (it == row.end() || !it->is_number())
    return bad_row(source, where + "/retailPrice", "expected a number");
  double price = it->get<double>();
  if (!std::isfinite(price) || price < 0)
    return bad_row(source, where + "/retailPrice", "expected a price of 0 or more");
  if (hours <= 0) return std::optional<double>();
  return std::optional<double>(price / hours);
}

Result<Timestamp> effective_from(const json& row, const std::string& source,
                                 const std::string& where) {
  auto text = text_member(row, "effectiveStartDate", source, where);
  if (!text) return text.error();
  if (text->empty()) return Timestamp{};
  auto t = detail::time_value(*text);
  if (!t) return bad_row(source, where + "/effectiveStartDate", t.error().message);
  return *t;
}

// Whether a row is a Linux pay-as-you-go price of a virtual machine.
Result<bool> wanted(const json& row, const std::string& source, const std::string& where) {
  auto type = text_member(row, "type", source, where);
  if (!type) return type.error();
  auto product = text_member(row, "productName", source, where);
  if (!product) return product.error();
  auto service = text_member(row, "serviceName", source, where);
  if (!service) return service.error();
  return *type == "Consumption" && !ends_with(*product, " Windows") &&
         (service->empty() || *service == "Virtual Machines");
}

Result<std::optional<VmPrice>> read_row(const json& row, const std::string& source,
                                        const std::string& where) {
  if (!row.is_object()) return bad_row(source, where, "expected an object");
  auto keep = wanted(row, source, where);
  if (!keep) return keep.error();
  if (!*keep) return std::optional<VmPrice>();
  VmPrice p;
  std::string sku, unit;
  for (auto [key, out] :
       {std::pair{"armSkuName", &p.vm_size}, std::pair{"armRegionName", &p.region},
        std::pair{"currencyCode", &p.currency}, std::pair{"skuName", &sku},
        std::pair{"unitOfMeasure", &unit}}) {
    auto v = text_member(row, key, source, where);
    if (!v) return v.error();
    *out = std::move(*v);
  }
  auto hourly = hourly_price(row, hours_per_unit(unit), source, where);
  if (!hourly) return hourly.error();
  if (!*hourly || p.region.empty() || p.vm_size.empty()) return std::optional<VmPrice>();
  auto from = effective_from(row, source, where);
  if (!from) return from.error();
  p.kind = kind_of_sku(sku);
  p.hourly = **hourly;
  p.effective_from = *from;
  return std::optional<VmPrice>(std::move(p));
}

Result<json> parse_document(std::string_view body, const std::string& source) {
  if (auto ok = detail::check_body_limits(body); !ok)
    return make_error(ErrorKind::Parse, fmt::format("{}: {}", source, ok.error().message));
  try {
    return json::parse(body);
  } catch (const json::parse_error& e) {
    return make_error(ErrorKind::Parse, json_syntax_message(source, body, e.byte, e.what()));
  } catch (const json::out_of_range& e) {  // a number too large for a double
    return make_error(
        ErrorKind::Parse,
        json_syntax_message(source, body, json_overflow_byte(body, e.what()), e.what()));
  }
}

Result<std::string> next_link(const json& doc, const std::string& source) {
  auto it = doc.find("NextPageLink");
  if (it == doc.end() || it->is_null()) return std::string();
  if (!it->is_string()) return bad_row(source, "/NextPageLink", "expected a link or null");
  return it->get<std::string>();
}

}  // namespace

Result<PricePage> parse_price_page(std::string_view body, const std::string& source) {
  auto doc = parse_document(body, source);
  if (!doc) return doc.error();
  if (!doc->is_object()) return bad_row(source, "/", "expected an object");
  auto items = doc->find("Items");
  if (items == doc->end() || !items->is_array())
    return bad_row(source, "/Items", "expected the list of prices");
  PricePage page;
  for (std::size_t i = 0; i < items->size(); ++i) {
    auto row = read_row((*items)[i], source, fmt::format("/Items/{}", i));
    if (!row) return row.error();
    if (*row) page.prices.push_back(std::move(**row));
  }
  auto next = next_link(*doc, source);
  if (!next) return next.error();
  page.next_link = std::move(*next);
  return page;
}

std::vector<VmPrice> newest_prices(std::vector<VmPrice> rows) {
  // Stable: among rows of one (region, kind) and start date, the first listed stays first.
  std::stable_sort(rows.begin(), rows.end(), [](const VmPrice& a, const VmPrice& b) {
    return std::tie(a.region, a.kind, b.effective_from) <
           std::tie(b.region, b.kind, a.effective_from);
  });
  auto same_slot = [](const VmPrice& a, const VmPrice& b) {
    return a.region == b.region && a.kind == b.kind;
  };
  rows.erase(std::unique(rows.begin(), rows.end(), same_slot), rows.end());
  return rows;
}

}  // namespace trainyard::azure
