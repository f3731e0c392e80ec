// HttpClient on libcurl: one easy handle driven by a private multi handle, so connections are
// reused between requests and `cancel` takes effect within one poll interval.
#include <curl/curl.h>

#include <array>
#include <memory>
#include <mutex>
#include <string>

#include "azure/http.hpp"
#include "signing.hpp"

namespace trainyard::azure {

namespace {

constexpr long kConnectTimeoutMs = 10000;
// The longest a transfer waits before it notices `cancel` (curl_multi_wakeup usually ends the wait
// sooner; this bounds it should a wakeup be missed).
constexpr int kPollMs = 100;

void global_init_once() {
  static std::once_flag once;
  std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

struct SlistDeleter {
  void operator()(curl_slist* list) const { curl_slist_free_all(list); }
};
using Slist = std::unique_ptr<curl_slist, SlistDeleter>;

bool has_line_break(std::string_view s) {
  return s.find_first_of(std::string_view("\r\n\0", 3)) != std::string_view::npos;
}

bool is_method_token(std::string_view method) {
  if (method.empty()) return false;
  for (char c : method) {
    if (!(c >= 'A' && c <= 'Z') && !(c >= 'a' && c <= 'z')) return false;
  }
  return true;
}

// A header name or value with a line break would smuggle extra headers into the request.
Result<void> check_request(const HttpRequest& req) {
  if (!is_method_token(req.method)) {
    return make_error(ErrorKind::Usage, "bad HTTP method \"" + req.method + "\"");
  }
  for (const auto& [name, value] : req.headers) {
    if (name.empty() || has_line_break(name) || has_line_break(value) ||
        name.find(':') != std::string::npos) {
      return make_error(ErrorKind::Usage, "bad HTTP header \"" + name + "\"");
    }
  }
  return ok_result();
}

bool is_expect_header(std::string_view name) {
  static constexpr std::string_view kExpect = "expect";
  if (name.size() != kExpect.size()) return false;
  for (size_t i = 0; i < name.size(); ++i) {
    if ((name[i] | 0x20) != kExpect[i]) return false;
  }
  return true;
}

// POST, PUT and PATCH always carry a body (Batch wants `Content-Length: 0` on empty ones); other
// methods only when one is given. GET and HEAD never do.
bool sends_body(const HttpRequest& req) {
  const std::string& m = req.method;
  if (m == "POST" || m == "PUT" || m == "PATCH") return true;
  return m != "GET" && m != "HEAD" && !req.body.empty();
}

bool append(Slist& list, const std::string& line) {
  curl_slist* next = curl_slist_append(list.get(), line.c_str());
  if (next == nullptr) return false;
  (void)list.release();
  list.reset(next);
  return true;
}

Slist build_headers(const HttpRequest& req) {
  Slist list;
  bool ok = true;
  for (const auto& [name, value] : req.headers) {
    if (is_expect_header(name)) continue;
    // `Name;` is curl's spelling of a header with an empty value (`Name:` would delete it).
    ok = ok && append(list, value.empty() ? name + ";" : name + ": " + value);
  }
  // An empty `Expect:` stops curl from waiting for `100 Continue` before sending larger bodies.
  ok = ok && append(list, "Expect:");
  // curl labels POSTFIELDS as a form unless told otherwise; the signer never saw that header.
  if (sends_body(req) && find_header(req.headers, "Content-Type").empty()) {
    ok = ok && append(list, "Content-Type:");
  }
  return ok ? std::move(list) : Slist();
}

// One raw header line from curl. A status line starts a new response: the headers of a
// `100 Continue` (or any earlier interim response) are dropped.
void add_header_line(std::string_view line, Headers& headers) {
  if (line.rfind("HTTP/", 0) == 0) {
    headers.clear();
    return;
  }
  bool folded = !line.empty() && (line.front() == ' ' || line.front() == '\t');
  line = signing::trim(line);
  if (line.empty()) return;
  if (folded && !headers.empty()) {
    headers.back().second += " " + std::string(line);
    return;
  }
  size_t colon = line.find(':');
  if (colon == std::string_view::npos) return;
  headers.emplace_back(std::string(signing::trim(line.substr(0, colon))),
                       std::string(signing::trim(line.substr(colon + 1))));
}

// Removes `secret` (the query, where a SAS signature lives) from curl's text, should it be there.
std::string scrub(std::string text, std::string_view secret) {
  if (secret.empty()) return text;
  for (size_t at = text.find(secret); at != std::string::npos; at = text.find(secret, at)) {
    text.replace(at, secret.size(), "...");
  }
  return text;
}

std::string url_query(std::string_view url) {
  size_t q = url.find('?');
  return q == std::string_view::npos ? std::string() : std::string(url.substr(q + 1));
}

std::string transport_message(const std::string& url, CURLcode rc, const char* errbuf) {
  std::string text = errbuf[0] != '\0' ? std::string(errbuf) : curl_easy_strerror(rc);
  if (rc == CURLE_PEER_FAILED_VERIFICATION) text += " (TLS certificate verification failed)";
  return url_host(url) + ": " + scrub(std::move(text), url_query(url));
}

// The connection is dropped (curl cannot skip the rest of a response), so the next request
// opens a new one.
std::string oversized_message(const HttpRequest& req, std::string_view what) {
  std::size_t limit = what == "body" ? req.max_response_bytes : kMaxResponseHeaderBytes;
  std::string size = limit >= (std::size_t{1} << 20) ? std::to_string(limit >> 20) + " MiB"
                                                     : std::to_string(limit >> 10) + " KiB";
  return url_host(req.url) + ": response " + std::string(what) + " over " + size +
         "; not read (a misbehaving server or proxy?)";
}

}  // namespace

struct HttpClient::Impl {
  Impl(HttpClient& owner_in, TlsOptions tls_in)
      : owner(owner_in), tls(std::move(tls_in)), easy(init_easy()), multi(curl_multi_init()) {}
  ~Impl() {
    if (easy != nullptr) curl_easy_cleanup(easy);
    if (multi != nullptr) curl_multi_cleanup(multi);
  }
  Impl(const Impl&) = delete;
  Impl& operator=(const Impl&) = delete;

  static CURL* init_easy() {
    global_init_once();
    return curl_easy_init();
  }

  static size_t on_body(char* data, size_t size, size_t count, void* self) {
    auto* impl = static_cast<Impl*>(self);
    if (impl->owner.cancelled_.load()) return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
    if (impl->response->body.size() + size * count > impl->max_body) {
      impl->oversized = "body";
      return 0;
    }
    if (impl->response->body.empty()) impl->reserve_body();
    impl->response->body.append(data, size * count);
    impl->owner.bytes_received_ += size * count;
    return size * count;
  }

  // A body of a known length is held in one allocation of that size, not in doublings of it
  // (a block download would otherwise briefly hold twice its size).
  void reserve_body() {
    curl_off_t length = -1;
    if (curl_easy_getinfo(easy, CURLINFO_CONTENT_LENGTH_DOWNLOAD_T, &length) == CURLE_OK &&
        length > 0 && static_cast<std::size_t>(length) <= max_body)
      response->body.reserve(static_cast<std::size_t>(length));
  }

  static size_t on_header(char* data, size_t size, size_t count, void* self) {
    auto* impl = static_cast<Impl*>(self);
    impl->header_bytes += size * count;
    if (impl->header_bytes > kMaxResponseHeaderBytes) {
      impl->oversized = "headers";
      return 0;
    }
    add_header_line(std::string_view(data, size * count), impl->response->headers);
    return size * count;
  }

  static int on_progress(void* self, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return static_cast<Impl*>(self)->owner.cancelled_.load() ? 1 : 0;
  }

  void set_transport_options(const HttpRequest& req) {
    curl_easy_setopt(easy, CURLOPT_URL, req.url.c_str());
    curl_easy_setopt(easy, CURLOPT_NOSIGNAL, 1L);
#if LIBCURL_VERSION_NUM >= 0x075500
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS_STR, "http,https");
#else
    curl_easy_setopt(easy, CURLOPT_PROTOCOLS, static_cast<long>(CURLPROTO_HTTP | CURLPROTO_HTTPS));
#endif
    curl_easy_setopt(easy, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(easy, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(easy, CURLOPT_CONNECTTIMEOUT_MS, kConnectTimeoutMs);
    if (req.timeout.count() > 0) {
      curl_easy_setopt(easy, CURLOPT_TIMEOUT_MS, static_cast<long>(req.timeout.count()));
    }
    curl_easy_setopt(easy, CURLOPT_TCP_KEEPALIVE, 1L);
    // HTTP/1.1 keeps header names as the server sent them and matches the emulator and the SDKs.
    curl_easy_setopt(easy, CURLOPT_HTTP_VERSION, static_cast<long>(CURL_HTTP_VERSION_1_1));
    set_tls_options();
  }

  void set_tls_options() {
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYPEER, 1L);
    curl_easy_setopt(easy, CURLOPT_SSL_VERIFYHOST, 2L);
    if (!tls.ca_file.empty()) curl_easy_setopt(easy, CURLOPT_CAINFO, tls.ca_file.c_str());
  }

  void set_callbacks() {
    errbuf[0] = '\0';
    curl_easy_setopt(easy, CURLOPT_ERRORBUFFER, errbuf.data());
    curl_easy_setopt(easy, CURLOPT_WRITEFUNCTION, &Impl::on_body);
    curl_easy_setopt(easy, CURLOPT_WRITEDATA, this);
    curl_easy_setopt(easy, CURLOPT_HEADERFUNCTION, &Impl::on_header);
    curl_easy_setopt(easy, CURLOPT_HEADERDATA, this);
    curl_easy_setopt(easy, CURLOPT_NOPROGRESS, 0L);
    curl_easy_setopt(easy, CURLOPT_XFERINFOFUNCTION, &Impl::on_progress);
    curl_easy_setopt(easy, CURLOPT_XFERINFODATA, this);
  }

  void set_method(const HttpRequest& req) {
    if (req.method == "GET") {
      curl_easy_setopt(easy, CURLOPT_HTTPGET, 1L);
      return;
    }
    if (req.method == "HEAD") {
      curl_easy_setopt(easy, CURLOPT_NOBODY, 1L);
      return;
    }
    if (sends_body(req)) {
      curl_easy_setopt(easy, CURLOPT_POSTFIELDSIZE_LARGE, static_cast<curl_off_t>(req.body.size()));
      curl_easy_setopt(easy, CURLOPT_POSTFIELDS, req.body.data());
    }
    if (req.method != "POST") curl_easy_setopt(easy, CURLOPT_CUSTOMREQUEST, req.method.c_str());
  }

  CURLcode finished_code() {
    int queued = 0;
    CURLcode rc = CURLE_OK;
    while (CURLMsg* msg = curl_multi_info_read(multi, &queued)) {
      if (msg->msg == CURLMSG_DONE) rc = msg->data.result;
    }
    return rc;
  }

  // curl_easy_perform would notice `cancel` only about once a second while a server is silent;
  // driving the multi handle lets it be seen after every poll.
  CURLcode run_transfer() {
    for (;;) {
      int running = 0;
      if (curl_multi_perform(multi, &running) != CURLM_OK) return CURLE_FAILED_INIT;
      if (running == 0) return finished_code();
      if (owner.cancelled_.load()) return CURLE_ABORTED_BY_CALLBACK;
      if (curl_multi_poll(multi, nullptr, 0, kPollMs, nullptr) != CURLM_OK)
        return CURLE_FAILED_INIT;
    }
  }

  CURLcode perform() {
    if (curl_multi_add_handle(multi, easy) != CURLM_OK) return CURLE_FAILED_INIT;
    CURLcode rc = run_transfer();
    curl_multi_remove_handle(multi, easy);
    return rc;
  }

  // Reset keeps the connection cache (it lives in the multi handle) but drops the last request's
  // method, body and headers.
  void configure(const HttpRequest& req, curl_slist* headers) {
    curl_easy_reset(easy);
    set_transport_options(req);
    set_callbacks();
    set_method(req);
    curl_easy_setopt(easy, CURLOPT_HTTPHEADER, headers);
  }

  Result<HttpResponse> send(const HttpRequest& req) {
    Slist headers = build_headers(req);
    if (!headers) return make_error(ErrorKind::Internal, "out of memory building HTTP headers");
    configure(req, headers.get());
    HttpResponse resp;
    response = &resp;
    max_body = req.max_response_bytes;
    header_bytes = 0;
    oversized = nullptr;
    CURLcode rc = perform();
    response = nullptr;
    if (owner.cancelled_.load())
      return make_error(ErrorKind::Network, url_host(req.url) + ": cancelled");
    if (oversized) return make_error(ErrorKind::Parse, oversized_message(req, oversized));
    if (rc != CURLE_OK)
      return make_error(ErrorKind::Network, transport_message(req.url, rc, errbuf.data()));
    long status = 0;
    curl_easy_getinfo(easy, CURLINFO_RESPONSE_CODE, &status);
    resp.status = static_cast<int>(status);
    return resp;
  }

  HttpClient& owner;
  TlsOptions tls;
  CURL* easy = nullptr;
  CURLM* multi = nullptr;
  HttpResponse* response = nullptr;  // the response being filled by the callbacks
  std::size_t max_body = kMaxResponseBytes;
  std::size_t header_bytes = 0;
  const char* oversized = nullptr;  // "body" or "headers" when a limit cut the transfer
  std::array<char, CURL_ERROR_SIZE> errbuf{};
};

HttpClient::HttpClient(TlsOptions tls) : impl_(std::make_unique<Impl>(*this, std::move(tls))) {}

HttpClient::~HttpClient() = default;

Result<HttpResponse> HttpClient::send(const HttpRequest& req) {
  if (auto ok = check_request(req); !ok) return ok.error();
  if (cancelled_.load()) return make_error(ErrorKind::Network, url_host(req.url) + ": cancelled");
  if (impl_->easy == nullptr || impl_->multi == nullptr) {
    return make_error(ErrorKind::Internal, "libcurl could not be initialised");
  }
  in_flight_since_.store(std::chrono::steady_clock::now().time_since_epoch().count());
  auto r = impl_->send(req);
  in_flight_since_.store(0);
  return r;
}

std::optional<std::chrono::steady_clock::time_point> HttpClient::in_flight_since() const {
  auto ticks = in_flight_since_.load();
  if (ticks == 0) return std::nullopt;
  return std::chrono::steady_clock::time_point(std::chrono::steady_clock::duration(ticks));
}

void HttpClient::cancel() {
  cancelled_.store(true);
  // Thread-safe by contract: ends the poll of a transfer in flight at once.
  if (impl_ && impl_->multi != nullptr) curl_multi_wakeup(impl_->multi);
}

void HttpClient::reset_cancel() {
  cancelled_.store(false);
}

}  // namespace trainyard::azure
