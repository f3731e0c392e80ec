#include "editor.hpp"

#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>

#include <fmt/format.h>

#include "local/child_wait.hpp"

namespace trainyard {
namespace {

std::string editor_command() {
  for (const char* name : {"EDITOR", "VISUAL"}) {
    const char* v = std::getenv(name);
    if (v && *v) return v;
  }
  return "vi";
}

}  // namespace

Result<void> run_editor(const std::string& path, const std::vector<std::string>& env) {
  const std::string editor = editor_command();
  // The file is the script's $1: a path with spaces or quotes needs no quoting.
  std::vector<std::string> argv{"sh", "-c", editor + " \"$1\"", "sh", path};
  std::vector<std::string> envp = env;
  auto args = exec_argv(argv);
  auto vars = exec_argv(envp);
  pid_t pid = fork();
  if (pid < 0) return make_error(ErrorKind::Io, "cannot start the editor: fork failed");
  if (pid == 0) {
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execve("/bin/sh", args.data(), vars.data());
    _exit(127);
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return make_error(ErrorKind::Io, "lost the editor: waitpid failed");
  }
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return {};
  if (WIFEXITED(status))
    return make_error(ErrorKind::Io,
                      fmt::format("editor '{}' exited with {}", editor, WEXITSTATUS(status)));
  return make_error(ErrorKind::Io, fmt::format("editor '{}' was killed", editor));
}

}  // namespace trainyard
