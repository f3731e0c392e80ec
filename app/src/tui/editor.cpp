#include "editor.hpp"

#include <cstdlib>

#include <fmt/format.h>

#include "core/child_process.hpp"

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
  auto status = run_foreground({"/bin/sh", "-c", editor + " \"$1\"", "sh", path}, env);
  if (!status)
    return make_error(ErrorKind::Io, "cannot start the editor: " + status.error().message);
  if (*status == 0) return {};
  if (*status > 128)
    return make_error(ErrorKind::Io, fmt::format("editor '{}' was killed", editor));
  return make_error(ErrorKind::Io, fmt::format("editor '{}' exited with {}", editor, *status));
}

}  // namespace trainyard
