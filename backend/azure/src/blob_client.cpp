// Blob service requests: each signed afresh per attempt and retried as the Batch client's are.
#include "azure/blob_client.hpp"

#include <fmt/format.h>

#include "azure/batch_client.hpp"
#include "blob_files.hpp"
#include "parse_values.hpp"

namespace trainyard::azure {

namespace {

std::string with_query(std::string url, const Query& query) {
  char sep = '?';
  for (const auto& [k, v] : query) {
    url += sep + url_encode(k) + "=" + url_encode(v);
    sep = '&';
  }
  return url;
}

// `bytes 0-99/1234` gives 1234; nullopt when the header is not that shape.
std::optional<uint64_t> total_from_content_range(std::string_view range) {
  auto slash = range.rfind('/');
  if (slash == std::string_view::npos) return std::nullopt;
  return detail::size_value(range.substr(slash + 1));
}

Result<uint64_t> header_size(const HttpResponse& r, std::string_view name) {
  std::string text = r.header(name);
  auto n = detail::size_value(text);
  if (!n) return make_error(ErrorKind::Parse, fmt::format("{} \"{}\" is not a size", name, text));
  return *n;
}

BlobProperties properties_from_headers(const HttpResponse& r, std::string name) {
  BlobProperties b;
  b.name = std::move(name);
  b.last_modified = parse_http_date(r.header("Last-Modified"));
  b.etag = r.header("ETag");
  b.content_type = r.header("Content-Type");
  // A ranged read's Content-MD5 is the range's; the whole blob's comes in its own header.
  b.content_md5 = r.header("x-ms-blob-content-md5");
  return b;
}

}  // namespace

std::string content_md5(std::string_view data) {
  Digest md5(Digest::Kind::Md5);
  md5.update(data);
  return md5.base64();
}

BlobClient::BlobClient(BlobClientOptions options, std::shared_ptr<Credential> credential,
                       const Clock& clock)
    : options_(std::move(options)),
      http_(std::make_unique<HttpClient>(options_.tls)),
      credential_(std::move(credential)),
      credential_mutex_(std::make_shared<std::mutex>()),
      clock_(clock),
      rng_(std::random_device{}()) {
  while (!options_.blob_endpoint.empty() && options_.blob_endpoint.back() == '/')
    options_.blob_endpoint.pop_back();
}

std::unique_ptr<BlobClient> BlobClient::sibling() const {
  auto c = std::make_unique<BlobClient>(options_, credential_, clock_);
  c->credential_mutex_ = credential_mutex_;
  return c;
}

std::string BlobClient::blob_url(const std::string& container, const std::string& blob) const {
  std::string url = options_.blob_endpoint + "/" + url_encode(container);
  if (!blob.empty()) url += "/" + url_encode_path(blob);
  return url;
}

Result<HttpResponse> BlobClient::attempt(const HttpRequest& base, std::string& body) {
  // Signed afresh each time (a SAS credential adds to the query), the body lent, not copied.
  HttpRequest req = base;
  req.body.swap(body);
  Result<void> authorized;
  {
    std::lock_guard lock(*credential_mutex_);
    authorized = credential_->authorize(req, clock_.now());
  }
  auto r = authorized ? http_->send(req) : Result<HttpResponse>(authorized.error());
  body.swap(req.body);
  if (!r)
    return make_error(r.error().kind,
                      fmt::format("{} {}: {}", req.method, redact_url(req.url), r.error().message));
  return r;
}

Result<HttpResponse> BlobClient::call(HttpRequest req, bool idempotent) {
  if (auto ok = check_url_allowed(req.url); !ok) return ok.error();
  req.timeout = options_.timeout;
  std::string body = std::move(req.body);
  req.body.clear();
  for (int n = 1;; ++n) {
    auto r = attempt(req, body);
    bool again =
        n <= options_.retry.max_retries && !http_->cancelled() &&
        (r ? is_retryable_status(r->status) : (idempotent || never_reached_server(r.error())));
    if (!again) {
      if (!r) return r.error();
      if (r->status >= 300) return storage_error_from_response(*r);
      return r;
    }
    pause_unless_cancelled(*http_, retry_delay(options_.retry, n, r ? &*r : nullptr, rng_));
  }
}

Result<std::vector<ContainerInfo>> BlobClient::containers() {
  std::vector<ContainerInfo> out;
  std::string marker;
  do {
    Query q{{"comp", "list"}};
    if (!marker.empty()) q.emplace_back("marker", marker);
    HttpRequest req;
    req.url = with_query(options_.blob_endpoint + "/", q);
    auto r = call(std::move(req));
    if (!r) return r.error();
    auto page = parse_container_list(r->body, &marker);
    if (!page)
      return make_error(ErrorKind::Parse, fmt::format("{}: {}", redact_url(options_.blob_endpoint),
                                                      page.error().message));
    out.insert(out.end(), page->begin(), page->end());
  } while (!marker.empty());
  return out;
}

Result<UserDelegationKey> BlobClient::user_delegation_key(Timestamp start, Timestamp expiry) {
  HttpRequest req;
  req.method = "POST";
  req.url = with_query(options_.blob_endpoint + "/",
                       {{"restype", "service"}, {"comp", "userdelegationkey"}});
  req.headers.emplace_back("Content-Type", "application/xml");
  req.body = fmt::format(
      "<?xml version=\"1.0\" encoding=\"utf-8\"?><KeyInfo><Start>{}</Start><Expiry>{}</Expiry>"
      "</KeyInfo>",
      sas_time(start), sas_time(expiry));
  auto r = call(std::move(req));
  if (!r) return r.error();
  return parse_user_delegation_key(r->body);
}

Result<bool> BlobClient::create_container(const std::string& container) {
  HttpRequest req;
  req.method = "PUT";
  req.url = with_query(blob_url(container, ""), {{"restype", "container"}});
  auto r = call(std::move(req));
  if (!r && r.error().message.starts_with("ContainerAlreadyExists")) return false;
  if (!r) return r.error();
  return true;
}

Result<BlobListPage> BlobClient::list_page(const std::string& container, const std::string& prefix,
                                           const std::string& delimiter, const std::string& marker,
                                           int max_results) {
  Query q{{"restype", "container"}, {"comp", "list"}};
  if (!prefix.empty()) q.emplace_back("prefix", prefix);
  if (!delimiter.empty()) q.emplace_back("delimiter", delimiter);
  if (!marker.empty()) q.emplace_back("marker", marker);
  q.emplace_back("maxresults", std::to_string(max_results));
  HttpRequest req;
  req.url = with_query(blob_url(container, ""), q);
  auto r = call(std::move(req));
  if (!r) return r.error();
  auto page = parse_blob_list(r->body);
  if (!page)
    return make_error(ErrorKind::Parse, fmt::format("{}: {}", redact_url(blob_url(container, "")),
                                                    page.error().message));
  return page;
}

Result<void> BlobClient::list(const std::string& container, const std::string& prefix,
                              const std::string& delimiter,
                              const std::function<Result<void>(BlobListPage&)>& on_page) {
  std::string marker;
  do {
    auto page = list_page(container, prefix, delimiter, marker);
    if (!page) return page.error();
    marker = page->next_marker;  // on_page may move the page away
    if (auto ok = on_page(*page); !ok) return ok;
  } while (!marker.empty());
  return {};
}

Result<BlobProperties> BlobClient::properties(const std::string& container,
                                              const std::string& blob) {
  HttpRequest req;
  req.method = "HEAD";
  req.url = blob_url(container, blob);
  auto r = call(std::move(req));
  if (!r) return r.error();
  auto b = properties_from_headers(*r, blob);
  b.content_md5 = r->header("Content-MD5");
  auto size = header_size(*r, "Content-Length");
  if (!size) return size.error();
  b.size = *size;
  return b;
}

Result<BlobRange> BlobClient::read_range(const std::string& container, const std::string& blob,
                                         uint64_t offset, uint64_t length,
                                         const std::string& if_match) {
  HttpRequest req;
  req.url = blob_url(container, blob);
  req.headers.emplace_back("x-ms-range", fmt::format("bytes={}-{}", offset, offset + length - 1));
  if (!if_match.empty()) req.headers.emplace_back("If-Match", if_match);
  req.max_response_bytes = std::max<std::size_t>(length, 1) + 1024;
  auto r = call(std::move(req));
  if (!r && r.error().message.starts_with("InvalidRange")) {
    // Past the end: nothing to read, and the blob's size is still worth knowing.
    auto props = properties(container, blob);
    if (!props) return props.error();
    return BlobRange{"", offset, std::move(*props)};
  }
  if (!r) return r.error();
  BlobRange out{std::move(r->body), offset, properties_from_headers(*r, blob)};
  auto total = total_from_content_range(r->header("Content-Range"));
  out.blob.size = total ? *total : out.data.size();
  return out;
}

Result<void> BlobClient::put_block(const std::string& container, const std::string& blob,
                                   const std::string& block_id, std::string data) {
  HttpRequest req;
  req.method = "PUT";
  req.url = with_query(blob_url(container, blob), {{"comp", "block"}, {"blockid", block_id}});
  req.headers.emplace_back("Content-MD5", content_md5(data));
  req.body = std::move(data);
  auto r = call(std::move(req));
  if (!r) return r.error();
  return {};
}

Result<void> BlobClient::put_block_list(const std::string& container, const std::string& blob,
                                        const std::vector<std::string>& block_ids,
                                        const std::string& content_type,
                                        const std::string& blob_md5) {
  std::string xml = "<?xml version=\"1.0\" encoding=\"utf-8\"?><BlockList>";
  for (const auto& id : block_ids) xml += "<Latest>" + id + "</Latest>";
  xml += "</BlockList>";
  HttpRequest req;
  req.method = "PUT";
  req.url = with_query(blob_url(container, blob), {{"comp", "blocklist"}});
  req.headers.emplace_back("Content-Type", "application/xml");
  if (!content_type.empty()) req.headers.emplace_back("x-ms-blob-content-type", content_type);
  if (!blob_md5.empty()) req.headers.emplace_back("x-ms-blob-content-md5", blob_md5);
  req.body = std::move(xml);
  auto r = call(std::move(req));
  if (!r) return r.error();
  return {};
}

Result<void> BlobClient::put_blob(const std::string& container, const std::string& blob,
                                  std::string data, const std::string& content_type) {
  HttpRequest req;
  req.method = "PUT";
  req.url = blob_url(container, blob);
  req.headers.emplace_back("x-ms-blob-type", "BlockBlob");
  req.headers.emplace_back("Content-MD5", content_md5(data));
  // Content-MD5 is checked on the way in; x-ms-blob-content-md5 is what the blob keeps.
  req.headers.emplace_back("x-ms-blob-content-md5", content_md5(data));
  if (!content_type.empty()) req.headers.emplace_back("x-ms-blob-content-type", content_type);
  req.body = std::move(data);
  auto r = call(std::move(req));
  if (!r) return r.error();
  return {};
}

}  // namespace trainyard::azure
