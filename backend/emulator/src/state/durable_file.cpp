#include "durable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

namespace trainyard::emu {

bool write_all(int fd, std::string_view text) {
  size_t done = 0;
  while (done < text.size()) {
    ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n <= 0) return false;
    done += static_cast<size_t>(n);
  }
  return true;
}

void sync_directory_of(const std::string& path) {
  auto slash = path.rfind('/');
  const std::string dir = slash == std::string::npos ? "." : path.substr(0, slash + 1);
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

int replace_file(const std::string& path, std::string_view text) {
  const std::string tmp = path + ".tmp";
  int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_APPEND, 0600);
  if (fd < 0) return -1;
  // A .tmp left by someone else keeps its mode through O_CREAT: set it before any byte goes in.
  if (::fchmod(fd, S_IRUSR | S_IWUSR) != 0 || !write_all(fd, text) || ::fsync(fd) != 0 ||
      std::rename(tmp.c_str(), path.c_str()) != 0) {
    ::close(fd);
    ::unlink(tmp.c_str());
    return -1;
  }
  sync_directory_of(path);
  return fd;
}

}  // namespace trainyard::emu
