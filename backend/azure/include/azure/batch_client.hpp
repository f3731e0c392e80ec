// The Batch data-plane client: signed, retried calls, paged lists, and the entities they return.
#pragma once

#include <atomic>
#include <functional>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "azure/parse.hpp"
#include "azure/retry.hpp"
#include "core/entities.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

/// A query parameter, unencoded.
using Query = std::vector<std::pair<std::string, std::string>>;

/// Where and how to reach one Batch account.
struct BatchClientOptions {
  std::string account;   ///< the account name (entities are stamped with it)
  std::string endpoint;  ///< `https://acct.region.batch.azure.com` (no trailing slash)
  std::string api_version = "2025-06-01";
  RetryPolicy retry;
  std::chrono::milliseconds timeout{30000};
};

/// What a client did, for `trainyard sync` figures and the status line.
struct ClientStats {
  uint64_t requests = 0;  ///< attempts sent, retries included
  uint64_t retries = 0;
  uint64_t throttled = 0;  ///< answers 429 or 503: the service asks the caller to slow down
  uint64_t bytes = 0;      ///< response body bytes received
};

/// One account's data-plane client. Not thread-safe (one per poller), except `cancel`.
class BatchClient {
 public:
  /// Ends the request in flight and every retry wait at once, from any thread; later calls fail
  /// with a Network error (used when a poller or an action worker stops).
  void cancel() { http_->cancel(); }
  /// When the request in flight was sent; none when none is. Safe from any thread, as cancel.
  std::optional<std::chrono::steady_clock::time_point> in_flight_since() const {
    return http_->in_flight_since();
  }

  BatchClient(BatchClientOptions options, std::shared_ptr<HttpClient> http,
              std::unique_ptr<Credential> credential, const Clock& clock);

  /// Sends `method path?query` (api-version added), signed afresh on each attempt, retried per
  /// the policy. `idempotent` false (a POST that creates): retried only where the service cannot
  /// have applied it (429, 503 and connection refusals). A non-2xx answer becomes an Error: kind
  /// NotFound (404), Conflict (409, 412), Auth (401, 403) or Http, its message
  /// `<Code>: <message> (HTTP <status>, request-id <id>)`.
  Result<HttpResponse> call(const std::string& method, const std::string& path,
                            const Query& query = {}, const std::string& body = "",
                            Headers headers = {}, bool idempotent = true);
  /// GETs a list and every next page, handing each page to `on_page` (which may move its items
  /// away: the page is not used after).
  Result<void> list(const std::string& path, const Query& query,
                    const std::function<Result<void>(ListPage&)>& on_page);
  /// Goes on with a list from a next-page link an earlier `list` handed out (it must be on this
  /// account's endpoint), page by page as `list` does.
  Result<void> list_from(const std::string& link,
                         const std::function<Result<void>(ListPage&)>& on_page);

  Result<std::vector<Pool>> pools();
  Result<std::vector<Node>> nodes(const std::string& pool);
  Result<std::vector<Job>> jobs();
  /// Tasks of a job; `filter`/`select` as OData (empty: none).
  Result<std::vector<Task>> tasks(const std::string& job, const std::string& filter = "",
                                  const std::string& select = "");
  /// Adds a task; a retried add that finds the task already there counts as success.
  Result<void> add_task(const std::string& job, const nlohmann::json& task);

  const ClientStats& stats() const { return stats_; }
  /// The service's clock (the `Date` header) at the last answer; nullopt before any.
  std::optional<Timestamp> server_time() const { return server_time_; }
  const BatchClientOptions& options() const { return options_; }

 private:
  std::string url(const std::string& path, const Query& query) const;
  Result<HttpResponse> attempt(HttpRequest req);
  /// GETs an absolute link with retries; `what` names the list in errors.
  Result<HttpResponse> get_link(const std::string& what, const std::string& link);
  Result<void> follow_pages(const std::string& what, Result<HttpResponse> first,
                            const std::function<Result<void>(ListPage&)>& on_page);
  bool should_retry(const Result<HttpResponse>& r, bool idempotent, int attempt) const;

  BatchClientOptions options_;
  std::shared_ptr<HttpClient> http_;
  std::unique_ptr<Credential> credential_;
  const Clock& clock_;
  ClientStats stats_;
  std::optional<Timestamp> server_time_;
  std::mt19937_64 rng_;
};

/// An RFC 1123 date (`Sun, 22 Nov 2026 07:01:02 GMT`), as in the `Date` header.
std::optional<Timestamp> parse_http_date(const std::string& text);

/// The Error a non-2xx Batch response stands for (see BatchClient::call).
Error error_from_response(const HttpResponse& r);

/// The request property a Batch error names (its PropertyName detail, `vmSize`), kept in the
/// message by error_from_response; empty when it names none.
std::string property_at_fault(const Error& e);

}  // namespace trainyard::azure
