// Container tasks: run in docker or podman when one answers, else on the host with a notice.
#include <cstdlib>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "service.hpp"

namespace trainyard::emu {

namespace {

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'')
      out += "'\\''";
    else
      out.push_back(c);
  }
  return out + "'";
}

// The first of docker and podman whose `info` succeeds, checked once.
const std::string& container_runtime() {
  static std::once_flag once;
  static std::string runtime;
  std::call_once(once, [] {
    for (const char* rt : {"docker", "podman"}) {
      std::string cmd = std::string(rt) + " info >/dev/null 2>&1";
      if (std::system(cmd.c_str()) == 0) {
        runtime = rt;
        return;
      }
    }
  });
  return runtime;
}

}  // namespace

std::string container_command(const std::string& command, const nlohmann::json& settings,
                              const std::string& workdir) {
  const std::string image = settings.value("imageName", "");
  const auto& rt = container_runtime();
  if (rt.empty() || image.empty()) {
    return "echo 'trainyard emulator: no container runtime answered (docker info, podman info); "
           "running " +
           std::string("on the host instead of in ") + (image.empty() ? "a container" : image) +
           "' >&2; " + command;
  }
  std::string run = rt + " run --rm --network host -v " + shell_quote(workdir) + ":" +
                    shell_quote(workdir) + " -w " + shell_quote(workdir) + " " +
                    settings.value("containerRunOptions", "") + " " + shell_quote(image) +
                    " /bin/sh -c " + shell_quote(command);
  return run;
}

}  // namespace trainyard::emu
