// The Blob service client: containers, listing with prefix/delimiter/marker paging, ranged reads
// and block uploads, signed and retried on the same HTTP layer as the Batch client.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "azure/blob_auth.hpp"
#include "azure/credentials.hpp"
#include "azure/http.hpp"
#include "azure/retry.hpp"
#include "core/result.hpp"
#include "core/time.hpp"

namespace trainyard::azure {

/// One blob as a listing or a read describes it.
struct BlobProperties {
  std::string name;
  uint64_t size = 0;
  std::optional<Timestamp> last_modified;
  std::string etag;
  std::string content_md5;  ///< base64 of the whole blob's MD5, as stored; empty when unset
  std::string content_type;
};

/// One page of a container's listing: blobs, and with a delimiter the "folders" (prefixes,
/// ending in the delimiter) below the prefix asked for.
struct BlobListPage {
  std::vector<std::string> prefixes;
  std::vector<BlobProperties> blobs;
  std::string next_marker;  ///< empty on the last page
};

/// One container as the service lists it.
struct ContainerInfo {
  std::string name;
  std::optional<Timestamp> last_modified;
};

/// Parses a List Blobs answer (`EnumerationResults`); errors (Parse) say what is missing.
Result<BlobListPage> parse_blob_list(std::string_view xml);
/// Parses a List Containers answer; `next_marker` gets its NextMarker.
Result<std::vector<ContainerInfo>> parse_container_list(std::string_view xml,
                                                        std::string* next_marker);

/// A non-2xx Blob answer as an Error: kind by status (NotFound, Conflict, Auth, Http), message
/// `<ErrorCode>: <Message> (HTTP <status>, request-id <id>)`, the code from `x-ms-error-code` or
/// the XML body. The AuthenticationErrorDetail is kept up to the string-to-sign it quotes.
Error storage_error_from_response(const HttpResponse& r);

/// What a ranged read returns.
struct BlobRange {
  std::string data;
  uint64_t offset = 0;  ///< where `data` starts in the blob
  BlobProperties blob;  ///< the whole blob (size from Content-Range)
};

/// Where and how to reach one storage account's Blob service.
struct BlobClientOptions {
  std::string blob_endpoint;  ///< `https://acct.blob.core.windows.net` or Azurite's path-style URL
  TlsOptions tls;
  RetryPolicy retry;
  std::chrono::milliseconds timeout{120000};
};

/// A Blob service client. Not thread-safe, except `cancel`; several clients may share one
/// credential (its calls are serialized), which is how transfers run blocks in parallel.
class BlobClient {
 public:
  /// The client opens its own connection; `credential` may be shared with sibling clients.
  BlobClient(BlobClientOptions options, std::shared_ptr<Credential> credential, const Clock& clock);

  /// A client on the same endpoint and credential with its own connection.
  std::unique_ptr<BlobClient> sibling() const;

  /// Every container in the account, by name.
  Result<std::vector<ContainerInfo>> containers();
  /// Creates the container; false when it was there already.
  Result<bool> create_container(const std::string& container);
  /// One page of blobs under `prefix`; with a `delimiter` ("/") names below the next delimiter
  /// come back as prefixes. `marker` continues from an earlier page's `next_marker`.
  Result<BlobListPage> list_page(const std::string& container, const std::string& prefix,
                                 const std::string& delimiter, const std::string& marker,
                                 int max_results = 5000);
  /// Every page of the listing, handed to `on_page` in turn.
  Result<void> list(const std::string& container, const std::string& prefix,
                    const std::string& delimiter,
                    const std::function<Result<void>(BlobListPage&)>& on_page);
  /// The blob's properties (a HEAD); NotFound when it is not there.
  Result<BlobProperties> properties(const std::string& container, const std::string& blob);
  /// Bytes [offset, offset+length) of the blob (fewer at its end). With `if_match` a blob that
  /// changed since (another ETag) fails with Conflict. A range past the end gives no bytes.
  Result<BlobRange> read_range(const std::string& container, const std::string& blob,
                               uint64_t offset, uint64_t length, const std::string& if_match = "");
  /// Stages one block; its MD5 is sent so the service refuses a block damaged on the way.
  Result<void> put_block(const std::string& container, const std::string& blob,
                         const std::string& block_id, std::string data);
  /// Commits the staged blocks in order as the blob; `content_md5` (base64, optional) is stored
  /// as the blob's MD5 so a later download can check the whole.
  Result<void> put_block_list(const std::string& container, const std::string& blob,
                              const std::vector<std::string>& block_ids,
                              const std::string& content_type, const std::string& content_md5);
  /// Asks the service for a user delegation key valid from `start` to `expiry` (at most 7 days
  /// from now), for signing SAS tokens without the account key; only an Entra token may ask.
  Result<UserDelegationKey> user_delegation_key(Timestamp start, Timestamp expiry);
  /// Writes a small blob in one request (Content-MD5 checked by the service).
  Result<void> put_blob(const std::string& container, const std::string& blob, std::string data,
                        const std::string& content_type);

  /// Ends the request in flight and every retry wait; later calls fail with Network.
  void cancel() { http_->cancel(); }
  /// The endpoint, for messages.
  const std::string& endpoint() const { return options_.blob_endpoint; }
  /// The URL of a blob (or a container, `blob` empty), names percent-encoded, no query.
  std::string blob_url(const std::string& container, const std::string& blob) const;

 private:
  Result<HttpResponse> call(HttpRequest req, bool idempotent = true);
  Result<HttpResponse> attempt(const HttpRequest& base, std::string& body);
  void pause(std::chrono::milliseconds delay) const;

  BlobClientOptions options_;
  std::unique_ptr<HttpClient> http_;
  std::shared_ptr<Credential> credential_;
  std::shared_ptr<std::mutex> credential_mutex_;
  const Clock& clock_;
  std::mt19937_64 rng_;
};

/// The base64 MD5 of `data`, as Content-MD5 carries it.
std::string content_md5(std::string_view data);

}  // namespace trainyard::azure
