#include "blob_files.hpp"

#include <fcntl.h>
#include <openssl/evp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

#include <fmt/format.h>

#include "core/atomic_file.hpp"
#include "signing.hpp"

namespace trainyard::azure {

Error file_error(const std::string& path) {
  return make_error(ErrorKind::Io, fmt::format("{}: {}", path, std::strerror(errno)));
}

Result<PartialFile> PartialFile::open(const std::string& path, uint64_t keep) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return file_error(path);
  if (::ftruncate(fd, static_cast<off_t>(keep)) != 0 ||
      ::lseek(fd, static_cast<off_t>(keep), SEEK_SET) < 0) {
    Error e = file_error(path);
    ::close(fd);
    return e;
  }
  return PartialFile(path, fd, keep);
}

PartialFile::PartialFile(PartialFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), size_(other.size_) {
  other.fd_ = -1;
}

PartialFile::~PartialFile() {
  if (fd_ >= 0) ::close(fd_);
}

Result<void> PartialFile::append(std::string_view data) {
  if (!write_all(fd_, data)) return file_error(path_);
  size_ += data.size();
  return {};
}

Result<void> PartialFile::finish() {
  bool ok = ::fsync(fd_) == 0;
  ok = ::close(fd_) == 0 && ok;
  fd_ = -1;
  if (!ok) return file_error(path_);
  return {};
}

Digest::Digest(Kind kind) : ctx_(EVP_MD_CTX_new()) {
  EVP_DigestInit_ex(ctx_, kind == Kind::Md5 ? EVP_md5() : EVP_sha256(), nullptr);
}

Digest::~Digest() {
  EVP_MD_CTX_free(ctx_);
}

void Digest::update(std::string_view data) {
  EVP_DigestUpdate(ctx_, data.data(), data.size());
}

Result<void> Digest::update_from_file(const std::string& path, uint64_t bytes) {
  return digest_file(path, bytes, {this});
}

Result<void> digest_file(const std::string& path, uint64_t bytes,
                         std::initializer_list<Digest*> digests) {
  if (bytes == 0) return {};
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return file_error(path);
  std::vector<char> buf(std::size_t{1} << 20);
  while (bytes > 0) {
    ssize_t n = ::read(fd, buf.data(), std::min<uint64_t>(bytes, buf.size()));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      Error e =
          n == 0 ? make_error(ErrorKind::Io, path + ": shorter than expected") : file_error(path);
      ::close(fd);
      return e;
    }
    for (Digest* d : digests) d->update(std::string_view(buf.data(), static_cast<size_t>(n)));
    bytes -= static_cast<uint64_t>(n);
  }
  ::close(fd);
  return {};
}

std::string Digest::finish() {
  unsigned char digest[EVP_MAX_MD_SIZE];
  unsigned int n = 0;
  EVP_DigestFinal_ex(ctx_, digest, &n);
  return std::string(reinterpret_cast<const char*>(digest), n);
}

std::string Digest::base64() {
  std::string d = finish();
  return signing::base64_encode(reinterpret_cast<const unsigned char*>(d.data()), d.size());
}

std::string Digest::hex() {
  std::string out;
  for (unsigned char c : finish()) out += fmt::format("{:02x}", c);
  return out;
}

Result<void> write_small_file(const std::string& path, const std::string& text) {
  int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (fd < 0) return file_error(path);
  bool ok = write_all(fd, text);
  ok = ::close(fd) == 0 && ok;
  if (!ok) return file_error(path);
  return {};
}

Result<void> commit_file(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return file_error(to);
  auto folder = std::filesystem::path(to).parent_path();
  int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd >= 0) {
    ::fsync(fd);
    ::close(fd);
  }
  return {};
}

}  // namespace trainyard::azure
