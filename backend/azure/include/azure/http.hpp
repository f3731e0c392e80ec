// HTTP for the Batch client: libcurl with connection reuse, gzip, timeouts and cancellation.
#pragma once

#include <atomic>
#include <chrono>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/result.hpp"

namespace trainyard::azure {

/// Header list in order; names compared case-insensitively by `find_header`.
using Headers = std::vector<std::pair<std::string, std::string>>;

/// The first value of header `name` (case-insensitive), or empty.
std::string find_header(const Headers& headers, std::string_view name);

/// One request. `url` is absolute (`https://acct.region.batch.azure.com/pools?...`).
/// Largest response body a request accepts by default: a misbehaving server is cut off, not
/// buffered (a 1000-task page is a few MiB; log ranges are smaller).
inline constexpr std::size_t kMaxResponseBytes = std::size_t{64} << 20;
/// Largest total size of a response's headers (a real Batch response has a few KiB).
inline constexpr std::size_t kMaxResponseHeaderBytes = std::size_t{256} << 10;

struct HttpRequest {
  std::string method = "GET";
  std::string url;
  Headers headers;
  std::string body;
  std::chrono::milliseconds timeout{30000};            ///< whole transfer
  std::size_t max_response_bytes = kMaxResponseBytes;  ///< larger bodies fail with Parse
};

/// One response; a non-2xx status is still a response, not an error.
struct HttpResponse {
  int status = 0;
  Headers headers;
  std::string body;
  std::string header(std::string_view name) const { return find_header(headers, name); }
};

/// TLS settings: certificates are always verified.
struct TlsOptions {
  std::string
      ca_file;  ///< extra CA bundle (`--cacert`, e.g. the emulator's CA); empty: system store
};

/// A connection-reusing HTTP client. One transfer at a time; `cancel` may be called from any
/// thread.
class HttpClient {
 public:
  explicit HttpClient(TlsOptions tls = {});
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// Sends a request. Transport failures (refused, reset, timeout, TLS, cancelled) are Errors of
  /// kind Network whose message names the host; HTTP statuses come back in the response.
  Result<HttpResponse> send(const HttpRequest& req);
  /// Aborts the transfer in flight (and makes the next one fail) until `reset_cancel`.
  void cancel();
  void reset_cancel();
  /// True between `cancel` and `reset_cancel`.
  bool cancelled() const { return cancelled_.load(); }
  /// Response bytes received so far (bodies, after decompression), for `sync` figures.
  uint64_t bytes_received() const { return bytes_received_.load(); }
  /// When the request in flight was sent (its retries are requests of their own); none when
  /// no request is in flight. Safe from any thread: the status line asks it to tell an endpoint
  /// that stopped answering from one that is slow to refuse.
  std::optional<std::chrono::steady_clock::time_point> in_flight_since() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::atomic<bool> cancelled_{false};
  std::atomic<uint64_t> bytes_received_{0};
  std::atomic<int64_t> in_flight_since_{0};  ///< steady_clock ticks; 0: none in flight
};

/// `https://` always; `http://` only to a loopback host (127.0.0.0/8, ::1, localhost). Errors of
/// kind Usage name the URL.
Result<void> check_url_allowed(std::string_view url);

/// Percent-encodes a query value or path segment (RFC 3986 unreserved kept).
std::string url_encode(std::string_view s);

/// Percent-encodes each `/`-separated segment of a path, keeping the slashes (a blob name, a file
/// on a node).
std::string url_encode_path(std::string_view path);

/// `url` fit for a message: no user info, query or fragment (a SAS `sig=` lives in the query).
std::string redact_url(std::string_view url);

/// The host of `url` as libcurl reads it, with `:port` when one is given; for messages. Falls back
/// to the redacted URL when it cannot be parsed.
std::string url_host(std::string_view url);

}  // namespace trainyard::azure
