#include "durable_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdio>

namespace trainyard::emu {

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
  sync_folder_of(path);
  return fd;
}

}  // namespace trainyard::emu
