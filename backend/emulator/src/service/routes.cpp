// Route table and the checks every request passes first: request ids, api-version, auth, faults.
#include <strings.h>

#include <chrono>
#include <thread>

#include <fmt/format.h>

#include "emulator/shared_key_check.hpp"
#include "service.hpp"

namespace trainyard::emu {

namespace {

// api-versions of the SDKs of 2018-2025, and the newest service release.
const char* const kApiVersions[] = {
    "2018-03-01.6.1",  "2018-08-01.7.0",  "2018-12-01.8.0",  "2019-06-01.9.0",
    "2019-08-01.10.0", "2020-03-01.11.0", "2020-09-01.12.0", "2021-06-01.14.0",
    "2022-01-01.15.0", "2022-10-01.16.0", "2023-05-01.17.0", "2023-11-01.18.0",
    "2024-02-01.19.0", "2024-07-01.20.0", "2025-06-01",      "2025-06-01.21.0",
};

bool known_api_version(const std::string& v) {
  for (const char* k : kApiVersions) {
    if (v == k) return true;
  }
  return false;
}

// Set by the fault dice in pre-routing; the post-routing step then cuts the body short.
thread_local bool t_truncate = false;

// Answers a body cut short: the status line and headers go out, then the connection closes.
void cut_short(httplib::Response& res, std::string body, bool nothing) {
  auto shared = std::make_shared<std::string>(std::move(body));
  size_t length = shared->size();
  res.set_content_provider(length, "application/json;odata=minimalmetadata",
                           [shared, nothing](size_t offset, size_t, httplib::DataSink& sink) {
                             if (!nothing && offset == 0)
                               sink.write(shared->data(), shared->size() / 2);
                             return false;
                           });
}

}  // namespace

Call Service::call(const httplib::Request& req, httplib::Response& res) {
  return Call{req, res, account_.base_url_, account_.now()};
}

bool Service::authorized(Call& c) {
  const auto& auth = c.req.get_header_value("Authorization");
  if (auth.rfind("Bearer ", 0) == 0) {
    std::shared_lock lock(account_.mu_);
    auto it = account_.tokens_.find(auth.substr(7));
    if (it != account_.tokens_.end() && it->second > c.now) return true;
    c.error(errors::kExpiredToken,
            {{"AuthenticationErrorDetail", "Unknown or expired bearer token"}});
    return false;
  }
  ReceivedRequest r{c.req.method, c.req.target, {}};
  for (const auto& [k, v] : c.req.headers) r.headers.emplace_back(k, v);
  auto failure = check_shared_key(r, account_.options_.account, account_.options_.key_base64,
                                  from_micros(c.now));
  if (failure.code.empty()) return true;
  c.error(403, failure.code, errors::kAuthenticationFailed.message,
          {{"AuthenticationErrorDetail", failure.detail}});
  return false;
}

bool Service::valid_query(Call& c) {
  if (!c.has_param("api-version")) {
    c.error(errors::kMissingApiVersion, {{"QueryParameterName", "api-version"}});
    return false;
  }
  if (!known_api_version(c.param("api-version"))) {
    c.error(errors::kInvalidQueryParameter,
            {{"QueryParameterName", "api-version"},
             {"QueryParameterValue", c.param("api-version")},
             {"Reason", "The api-version is not supported by this service"}});
    return false;
  }
  if (!c.has_param("timeout")) return true;
  const auto v = c.param("timeout");
  if (v.empty() || v.find_first_not_of("0123456789") != std::string::npos || v.size() > 9) {
    c.error(errors::kInvalidQueryParameter,
            {{"QueryParameterName", "timeout"}, {"QueryParameterValue", v}});
    return false;
  }
  return true;
}

httplib::Server::HandlerResponse Service::inject_fault(Call& c) {
  using R = httplib::Server::HandlerResponse;
  auto rates = faults_.rates();
  if (rates.latency_ms > 0)
    std::this_thread::sleep_for(std::chrono::milliseconds(rates.latency_ms));
  switch (faults_.draw()) {
    case Fault::None:
      return R::Unhandled;
    case Fault::Throttle:
      c.res.set_header("Retry-After", std::to_string(rates.retry_after_s));
      c.error(errors::kTooManyRequests);
      return R::Handled;
    case Fault::Busy:
      c.res.set_header("Retry-After", std::to_string(rates.retry_after_s));
      c.error(errors::kServerBusy);
      return R::Handled;
    case Fault::Internal:
      c.error(errors::kInternalError);
      return R::Handled;
    case Fault::Reset:
      cut_short(c.res, std::string(256, ' '), true);
      return R::Handled;
    case Fault::Truncate:
      t_truncate = true;
      return R::Unhandled;  // answered normally, then cut in the post-routing step
  }
  return R::Unhandled;
}

// Runs before the request's body is read, so an unauthenticated body is never taken in. What a
// request must pass comes from the route it will take, never from the text of its path (a job
// may be named `oauth2`).
httplib::Server::HandlerResponse Service::pre_route(const httplib::Request& req,
                                                    httplib::Response& res) {
  using R = httplib::Server::HandlerResponse;
  t_truncate = false;
  res.set_header("request-id", new_guid());
  if (::strcasecmp(req.get_header_value("return-client-request-id").c_str(), "true") == 0 &&
      req.has_header("client-request-id")) {
    res.set_header("client-request-id", req.get_header_value("client-request-id"));
  }
  Call c = call(req, res);
  httplib::Match matches;
  const Route* route = find_route(req.method, req.path, matches);
  const Gate gate = route ? route->gate : Gate::Signed;  // unknown: 404 once signed
  if (gate == Gate::Identity) {
    if (account_.options_.identity) return R::Unhandled;
    c.error(errors::kIdentityOff);
    return R::Handled;
  }
  if (!valid_query(c) || !authorized(c)) return R::Handled;
  if (gate == Gate::Control) return R::Unhandled;  // the test's control endpoint: no faults
  return inject_fault(c);
}

void Service::install(httplib::Server& s) {
  s.set_pre_routing_handler([this](const auto& req, auto& res) { return pre_route(req, res); });
  for (const auto& r : routes_) {
    auto handler = [this, &r](const httplib::Request& req, httplib::Response& res) {
      answer(r, req, res);
    };
    if (r.method == "GET") s.Get(r.pattern, handler);
    if (r.method == "POST") s.Post(r.pattern, handler);
    if (r.method == "PATCH") s.Patch(r.pattern, handler);
    if (r.method == "PUT") s.Put(r.pattern, handler);
    if (r.method == "DELETE") s.Delete(r.pattern, handler);
  }
  s.set_post_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
    // A HEAD answer sends its headers only, whatever body the handler built.
    faults_.count(req.method, req.path, res.status, req.method == "HEAD" ? 0 : res.body.size());
    if (t_truncate && res.body.size() > 1) cut_short(res, std::move(res.body), false);
    t_truncate = false;
  });
}

}  // namespace trainyard::emu
