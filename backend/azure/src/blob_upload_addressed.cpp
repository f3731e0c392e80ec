// Content-addressed uploads: a file's blob is named by the SHA-256 of its bytes, so sending a
// folder again sends only what changed.
#include <filesystem>
#include <system_error>

#include "azure/blob_transfer.hpp"
#include "blob_files.hpp"

namespace trainyard::azure {

namespace {

// Whether the blob is there with this size and MD5 (a blob without an MD5 is sent again).
Result<bool> already_there(BlobClient& client, const std::string& container,
                           const AddressedBlob& file, const std::string& md5) {
  auto props = client.properties(container, file.blob);
  if (!props && props.error().kind == ErrorKind::NotFound) return false;
  if (!props) return props.error();
  return props->size == file.size && props->content_md5 == md5;
}

}  // namespace

Result<AddressedBlob> upload_addressed(BlobClient& client, const std::string& path,
                                       const std::string& container, const std::string& prefix,
                                       const TransferOptions& options) {
  std::error_code ec;
  AddressedBlob out;
  out.size = std::filesystem::file_size(path, ec);
  if (ec) return make_error(ErrorKind::Io, path + ": " + ec.message());
  Digest sha(Digest::Kind::Sha256), md5(Digest::Kind::Md5);
  if (auto ok = digest_file(path, out.size, {&sha, &md5}); !ok) return ok.error();
  out.blob = prefix + sha.hex();
  const std::string want_md5 = md5.base64();
  auto there = already_there(client, container, out, want_md5);
  if (!there) return there.error();
  if (*there) return out;
  auto sent = upload_file(client, path, container, out.blob, options, "application/octet-stream");
  if (!sent) return sent.error();
  if (sent->bytes != out.size || sent->content_md5 != want_md5)
    return make_error(ErrorKind::Conflict, path + ": changed while it was sent; send it again");
  out.sent = true;
  return out;
}

}  // namespace trainyard::azure
