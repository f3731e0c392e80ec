#include "core/atomic_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include <fmt/format.h>

namespace trainyard {

Result<void> write_file_atomic(const std::string& path, std::string_view content, int mode,
                               bool durable) {
  std::string tmp = path + ".XXXXXX";
  // mkostemp creates the file with mode 0600, whatever the umask: nobody else can open it
  // before fchmod gives it its mode.
  const int fd = ::mkostemp(tmp.data(), O_CLOEXEC);
  if (fd < 0) return make_error(ErrorKind::Io, fmt::format("{}: {}", path, std::strerror(errno)));
  bool ok = ::fchmod(fd, static_cast<mode_t>(mode)) == 0 && write_all(fd, content) &&
            (!durable || ::fsync(fd) == 0);
  ok = ::close(fd) == 0 && ok && ::rename(tmp.c_str(), path.c_str()) == 0;
  if (!ok) {
    const int err = errno;
    ::unlink(tmp.c_str());
    return make_error(ErrorKind::Io, fmt::format("{}: {}", path, std::strerror(err)));
  }
  if (durable) sync_folder_of(path);
  return ok_result();
}

bool write_all(int fd, std::string_view bytes) {
  while (!bytes.empty()) {
    ssize_t n = ::write(fd, bytes.data(), bytes.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return false;
    bytes.remove_prefix(static_cast<size_t>(n));
  }
  return true;
}

// The rename itself reaches the disk only once the folder holding the name is synced.
void sync_folder_of(const std::string& path) {
  auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace trainyard
