// Saving a log: streamed in blocks (a log may be gigabytes), written beside the destination
// and renamed, so no reader ever sees half a file and a failure leaves nothing behind.
#include "log_save.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace trainyard {
namespace {

namespace fs = std::filesystem;

Error io_error(const fs::path& path, int err) {
  return make_error(ErrorKind::Io, fmt::format("{}: {}", path.string(), std::strerror(err)));
}

// Copies every byte of `in` to `out`; the errno of the failure, else 0.
int copy_fd(int in, int out) {
  char buf[1 << 16];
  for (;;) {
    ssize_t n = ::read(in, buf, sizeof buf);
    if (n == 0) return 0;
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    for (ssize_t off = 0; off < n;) {
      ssize_t w = ::write(out, buf + off, static_cast<size_t>(n - off));
      if (w < 0 && errno == EINTR) continue;
      if (w < 0) return errno;
      off += w;
    }
  }
}

// Writes `source` into a new temporary file beside `dest`; its path.
Result<fs::path> write_temp(const std::string& source, const fs::path& dest) {
  int in = ::open(source.c_str(), O_RDONLY | O_CLOEXEC);
  if (in < 0) return io_error(source, errno);
  std::string tmpl = (dest.parent_path() / ("." + dest.filename().string() + ".XXXXXX")).string();
  int out = ::mkostemp(tmpl.data(), O_CLOEXEC);
  if (out < 0) {
    int err = errno;
    ::close(in);
    return io_error(dest.parent_path(), err);
  }
  int err = copy_fd(in, out);
  if (err == 0 && ::fchmod(out, 0644) != 0) err = errno;
  if (err == 0 && ::fsync(out) != 0) err = errno;
  ::close(in);
  if (::close(out) != 0 && err == 0) err = errno;
  if (err != 0) {
    ::unlink(tmpl.c_str());
    return io_error(dest, err);
  }
  return fs::path(tmpl);
}

}  // namespace

Result<fs::path> save_log_copy(const std::string& source, const std::string& dest, bool overwrite) {
  if (dest.empty()) return make_error(ErrorKind::Usage, "save: give a file to save the log to");
  if (source.empty()) return make_error(ErrorKind::NotFound, "save: this log has no file yet");
  std::error_code ec;
  fs::path target = fs::absolute(dest, ec);
  if (ec) return make_error(ErrorKind::Io, fmt::format("{}: {}", dest, ec.message()));
  if (fs::is_directory(target, ec))
    return make_error(ErrorKind::Usage, fmt::format("{}: is a directory", target.string()));
  if (!overwrite && fs::exists(target, ec))
    return make_error(ErrorKind::Conflict, fmt::format("{} exists", target.string()));
  auto tmp = write_temp(source, target);
  if (!tmp) return tmp.error();
  if (::rename(tmp->c_str(), target.c_str()) != 0) {
    int err = errno;
    ::unlink(tmp->c_str());
    return io_error(target, err);
  }
  return target;
}

}  // namespace trainyard
