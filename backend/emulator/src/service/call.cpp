#include "call.hpp"

#include <strings.h>

#include <atomic>
#include <random>

#include <fmt/format.h>

#include "emulator/shared_key_check.hpp"

namespace trainyard::emu {

namespace {

std::string strip_quotes(std::string s) {
  if (s.size() >= 2 && s.front() == '"' && s.back() == '"') s = s.substr(1, s.size() - 2);
  if (s.rfind("W/", 0) == 0) s = strip_quotes(s.substr(2));
  return s;
}

bool etag_listed(const std::string& header, const std::string& etag) {
  size_t pos = 0;
  while (pos <= header.size()) {
    size_t comma = header.find(',', pos);
    if (comma == std::string::npos) comma = header.size();
    std::string one = header.substr(pos, comma - pos);
    while (!one.empty() && one.front() == ' ') one.erase(0, 1);
    while (!one.empty() && one.back() == ' ') one.pop_back();
    if (one == "*" || strip_quotes(one) == etag) return true;
    pos = comma + 1;
  }
  return false;
}

// Last-Modified has one-second resolution on the wire, so compare whole seconds.
Micros header_time(const httplib::Request& req, const char* name) {
  if (!req.has_header(name)) return 0;
  auto t = parse_rfc1123(req.get_header_value(name));
  return t ? to_micros(*t) : 0;
}

}  // namespace

void Call::error(int status, std::string_view code, std::string_view message,
                 const std::vector<ErrorValue>& values) {
  nlohmann::json body;
  body["odata.metadata"] =
      base_url + "/$metadata#Microsoft.Azure.Batch.Protocol.Entities.Container.errors/@Element";
  body["code"] = code;
  body["message"] = {{"lang", "en-US"},
                     {"value", fmt::format("{}\nRequestId:{}\nTime:{}", message,
                                           res.get_header_value("request-id"), format_time(now))}};
  if (!values.empty()) {
    auto arr = nlohmann::json::array();
    for (const auto& [k, v] : values) arr.push_back({{"key", k}, {"value", v}});
    body["values"] = arr;
  }
  res.status = status;
  if (status == 304) return;  // 304 carries no body
  // Values quoted back (a query parameter, an id from the path) are bytes as received.
  res.set_content(body.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace),
                  "application/json;odata=minimalmetadata");
}

void Call::json(int status, std::string body) {
  res.status = status;
  // What set_content does, with the body moved rather than copied (a page is about a megabyte).
  res.body = std::move(body);
  res.headers.erase("Content-Type");
  res.set_header("Content-Type", "application/json;odata=minimalmetadata");
}

void Call::empty(int status, const std::string& data_service_id) {
  res.status = status;
  if (!data_service_id.empty()) res.set_header("DataServiceId", data_service_id);
  if (status != 204 && status != 304) res.set_header("Content-Length", "0");
}

void Call::version_headers(const Versioned& v) {
  res.set_header("ETag", v.etag);
  res.set_header("Last-Modified", format_rfc1123(from_micros(v.last_modified)));
}

std::string Call::param(std::string_view name) const {
  for (const auto& [k, v] : req.params) {
    if (k.size() == name.size() && ::strncasecmp(k.data(), name.data(), k.size()) == 0) return v;
  }
  return "";
}

bool Call::has_param(std::string_view name) const {
  for (const auto& [k, v] : req.params) {
    if (k.size() == name.size() && ::strncasecmp(k.data(), name.data(), k.size()) == 0) return true;
  }
  return false;
}

bool Call::body_object(nlohmann::json& out) {
  out = nlohmann::json::parse(req.body, nullptr, false);
  if (out.is_discarded() || !out.is_object()) {
    error(errors::kInvalidRequestBody);
    return false;
  }
  return true;
}

bool Call::conditions_pass(const Versioned& v, bool is_write) {
  const int fail = is_write ? 412 : 304;
  if (req.has_header("If-Match") && !etag_listed(req.get_header_value("If-Match"), v.etag)) {
    error(errors::kConditionNotMet);
    return false;
  }
  if (req.has_header("If-None-Match") &&
      etag_listed(req.get_header_value("If-None-Match"), v.etag)) {
    error(fail, "ConditionNotMet",
          "The condition specified using HTTP conditional header(s) is not met.");
    return false;
  }
  Micros modified = v.last_modified / 1000000 * 1000000;
  if (Micros since = header_time(req, "If-Modified-Since"); since && modified <= since) {
    error(fail, "ConditionNotMet",
          "The condition specified using HTTP conditional header(s) is not met.");
    return false;
  }
  if (Micros since = header_time(req, "If-Unmodified-Since"); since && modified > since) {
    error(errors::kConditionNotMet);
    return false;
  }
  return true;
}

void bad_property(Call& c, const ErrorText& e, std::string_view property, std::string_view reason) {
  std::vector<ErrorValue> values{{"PropertyName", std::string(property)}};
  if (!reason.empty()) values.emplace_back("Reason", std::string(reason));
  c.error(e, values);
}

std::string next_etag() {
  static std::atomic<uint64_t> seq{0};
  static const uint64_t base =
      0x8D000000000000ULL + (static_cast<uint64_t>(std::random_device{}()) << 16);
  return fmt::format("0x{:X}", base + seq.fetch_add(1) + 1);
}

void touch(Versioned& v, Micros now) {
  v.etag = next_etag();
  v.last_modified = now;
  if (v.creation == 0) v.creation = now;
}

std::string new_guid() {
  thread_local std::mt19937_64 rng{std::random_device{}()};
  uint64_t a = rng(), b = rng();
  return fmt::format("{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}", a >> 32, (a >> 16) & 0xffff, a & 0xfff,
                     0x8000 | ((b >> 48) & 0x3fff), b & 0xffffffffffffULL);
}

}  // namespace trainyard::emu
