#include "azure/batch_client.hpp"

#include <cctype>
#include <ctime>
#include <thread>

#include <fmt/format.h>

#include "core/text.hpp"

namespace trainyard::azure {

namespace {

// An AuthenticationErrorDetail up to the sentence that quotes the string the service signed: that
// string (headers, dates, paths over several lines) is noise in a one-line error.
std::string without_string_to_sign(const std::string& detail) {
  const std::string lower = ascii_lowercase(detail);
  auto at = lower.find("string to sign");
  if (at == std::string::npos) return detail;
  auto sentence = lower.rfind(". ", at);
  auto kept = detail.substr(0, sentence == std::string::npos ? 0 : sentence + 1);
  while (!kept.empty() && kept.back() == ' ') kept.pop_back();
  return kept;
}

}  // namespace

Error error_from_response(const HttpResponse& r) {
  auto parsed = parse_batch_error(r.body);
  std::string code = parsed ? parsed->code : "HTTP" + std::to_string(r.status);
  std::string message = parsed ? parsed->message : std::string("no Batch error in the response");
  // The details say what was wrong: a signature's mismatch, the property at fault and why, a
  // formula's line and column (`Message`); property_at_fault reads PropertyName back.
  if (parsed) {
    for (const auto& v : parsed->values) {
      if (v.name == "PropertyName" || v.name == "Reason" || v.name == "Message")
        message += fmt::format(" [{}: {}]", v.name, v.value.substr(0, 300));
      if (v.name != "AuthenticationErrorDetail") continue;
      auto detail = without_string_to_sign(v.value).substr(0, 200);
      if (!detail.empty()) message += " " + detail;
    }
  }
  auto request_id = r.header("request-id");
  return make_error(http_error_kind(r.status),
                    fmt::format("{}: {} (HTTP {}{}{})", code, message, r.status,
                                request_id.empty() ? "" : ", request-id ", request_id));
}

std::string property_at_fault(const Error& e) {
  static const std::string kTag = "[PropertyName: ";
  auto at = e.message.find(kTag);
  if (at == std::string::npos) return "";
  at += kTag.size();
  auto end = e.message.find(']', at);
  return end == std::string::npos ? "" : e.message.substr(at, end - at);
}

std::optional<Timestamp> parse_http_date(const std::string& text) {
  std::tm tm{};
  const char* end = strptime(text.c_str(), "%a, %d %b %Y %H:%M:%S GMT", &tm);
  // The years a server's date can mean; a far one (the year 1013 a fuzzer sent) overflowed the
  // conversion through system_clock's nanoseconds.
  if (!end || *end || tm.tm_year < 70 || tm.tm_year > 8099) return std::nullopt;
  return Timestamp(std::chrono::duration_cast<Duration>(std::chrono::seconds(timegm(&tm))));
}

BatchClient::BatchClient(BatchClientOptions options, std::shared_ptr<HttpClient> http,
                         std::unique_ptr<Credential> credential, const Clock& clock)
    : options_(std::move(options)),
      http_(std::move(http)),
      credential_(std::move(credential)),
      clock_(clock),
      rng_(std::random_device{}()) {}

std::string BatchClient::url(const std::string& path, const Query& query) const {
  std::string u = options_.endpoint + path + "?api-version=" + url_encode(options_.api_version);
  for (const auto& [k, v] : query) u += "&" + url_encode(k) + "=" + url_encode(v);
  return u;
}

Result<HttpResponse> BatchClient::attempt(HttpRequest req) {
  if (auto ok = credential_->authorize(req, clock_.now()); !ok) return ok.error();
  ++stats_.requests;
  const auto before = http_->bytes_received();
  auto r = http_->send(req);
  stats_.bytes += http_->bytes_received() - before;
  if (r && (r->status == 429 || r->status == 503)) ++stats_.throttled;
  if (r) {
    if (auto t = parse_http_date(r->header("Date"))) server_time_ = t;
  }
  return r;
}

bool BatchClient::should_retry(const Result<HttpResponse>& r, bool idempotent, int attempt) const {
  if (attempt > options_.retry.max_retries || http_->cancelled()) return false;
  if (!r) return idempotent || never_reached_server(r.error());
  if (!is_retryable_status(r->status)) return false;
  // A create the service may have applied is retried only when it says it did not (429, 503).
  return idempotent || r->status == 429 || r->status == 503;
}

Result<HttpResponse> BatchClient::call(const std::string& method, const std::string& path,
                                       const Query& query, const std::string& body, Headers headers,
                                       bool idempotent) {
  if (auto ok = check_url_allowed(options_.endpoint); !ok) return ok.error();
  HttpRequest req;
  req.method = method;
  req.url = url(path, query);
  req.headers = std::move(headers);
  req.body = body;
  req.timeout = options_.timeout;
  if (!body.empty())
    req.headers.emplace_back("Content-Type", "application/json; odata=minimalmetadata");
  for (int n = 1;; ++n) {
    auto r = attempt(req);
    if (!should_retry(r, idempotent, n)) {
      if (!r) return r.error();
      if (r->status >= 300 && r->status != 304) return error_from_response(*r);
      return r;
    }
    ++stats_.retries;
    pause_unless_cancelled(*http_, retry_delay(options_.retry, n, r ? &*r : nullptr, rng_));
  }
}

Result<void> BatchClient::list(const std::string& path, const Query& query,
                               const std::function<Result<void>(ListPage&)>& on_page) {
  return follow_pages(path, call("GET", path, query), on_page);
}

Result<void> BatchClient::list_from(const std::string& link,
                                    const std::function<Result<void>(ListPage&)>& on_page) {
  const bool ours = link.rfind(options_.endpoint + "/", 0) == 0;
  const std::string what = ours ? link.substr(options_.endpoint.size()) : link;
  return follow_pages(what, get_link(what, link), on_page);
}

Result<HttpResponse> BatchClient::get_link(const std::string& what, const std::string& link) {
  // The link is absolute and already carries api-version; it must stay on this endpoint.
  if (link.rfind(options_.endpoint + "/", 0) != 0) {
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: odata.nextLink leaves the account's endpoint", what));
  }
  HttpRequest req;
  req.url = link;
  req.timeout = options_.timeout;
  auto r = attempt(req);
  for (int n = 1; should_retry(r, true, n); ++n) {
    ++stats_.retries;
    pause_unless_cancelled(*http_, retry_delay(options_.retry, n, r ? &*r : nullptr, rng_));
    r = attempt(req);
  }
  if (r && r->status >= 300) return error_from_response(*r);
  return r;
}

Result<void> BatchClient::follow_pages(const std::string& what, Result<HttpResponse> r,
                                       const std::function<Result<void>(ListPage&)>& on_page) {
  while (true) {
    if (!r) return r.error();
    auto page = parse_list_page(r->body);
    if (!page)
      return make_error(ErrorKind::Parse,
                        fmt::format("{}{}: {}", options_.endpoint, what, page.error().message));
    std::string next = page->next_link;  // on_page may move the page away
    if (auto ok = on_page(*page); !ok) return ok;
    if (next.empty()) return {};
    r = get_link(what, next);
  }
}

namespace {

template <typename T, typename F>
Result<std::vector<T>> collect(BatchClient& c, const std::string& path, const Query& q, F parse) {
  std::vector<T> out;
  auto ok = c.list(path, q, [&](const ListPage& page) -> Result<void> {
    for (const auto& item : page.items) {
      auto e = parse(item);
      if (!e) return e.error();
      out.push_back(std::move(*e));
    }
    return {};
  });
  if (!ok) return ok.error();
  return out;
}

}  // namespace

Result<std::vector<Pool>> BatchClient::pools() {
  return collect<Pool>(*this, "/pools", {},
                       [&](const nlohmann::json& j) { return parse_pool(j, options_.account); });
}

Result<std::vector<Node>> BatchClient::nodes(const std::string& pool) {
  return collect<Node>(
      *this, "/pools/" + url_encode(pool) + "/nodes", {},
      [&](const nlohmann::json& j) { return parse_node(j, options_.account, pool); });
}

Result<std::vector<Job>> BatchClient::jobs() {
  return collect<Job>(*this, "/jobs", {},
                      [&](const nlohmann::json& j) { return parse_job(j, options_.account); });
}

Result<std::vector<Task>> BatchClient::tasks(const std::string& job, const std::string& filter,
                                             const std::string& select) {
  Query q;
  if (!filter.empty()) q.emplace_back("$filter", filter);
  if (!select.empty()) q.emplace_back("$select", select);
  return collect<Task>(
      *this, "/jobs/" + url_encode(job) + "/tasks", q,
      [&](const nlohmann::json& j) { return parse_task(j, options_.account, job); });
}

Result<void> BatchClient::add_task(const std::string& job, const nlohmann::json& task) {
  const auto before = stats_.retries;
  // Reconcilable, so retried like a read: a duplicate is recognised below.
  auto r = call("POST", "/jobs/" + url_encode(job) + "/tasks", {}, task.dump(), {}, true);
  if (r) return {};
  // Re-sent after a lost answer, the add may have landed the first time: the same id is success.
  if (stats_.retries > before && r.error().kind == ErrorKind::Conflict &&
      r.error().message.rfind("TaskExists:", 0) == 0) {
    return {};
  }
  return r.error();
}

}  // namespace trainyard::azure
