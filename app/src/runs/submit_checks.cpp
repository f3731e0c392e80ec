#include "submit_checks.hpp"

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <regex>

#include <fmt/format.h>

#include "azure/batch_actions.hpp"

namespace trainyard {
namespace {

// `mpirun` run by name (a path names its own file, which the task's node may have).
bool runs_mpirun(const std::string& command) {
  static const std::regex word(R"((^|[\s;&|('"])mpirun($|[\s;&|)'"]))");
  return std::regex_search(command, word);
}

bool runs_mpirun(const spec::SpecTask& t) {
  return runs_mpirun(t.commandLine) ||
         (t.multiInstanceSettings && t.multiInstanceSettings->coordinationCommandLine &&
          runs_mpirun(*t.multiInstanceSettings->coordinationCommandLine));
}

void check_inputs(const spec::JobSpec& spec, std::vector<std::string>& out) {
  for (const auto& in : spec.inputs) {
    std::error_code ec;
    if (!std::filesystem::is_directory(in.path, ec))
      out.push_back(
          fmt::format("{}: input directory {} ({}) does not exist", spec.job.id, in.id, in.path));
  }
}

void check_task(const spec::JobSpec& spec, const spec::SpecTask& t, const ContainerChoice& c,
                std::vector<std::string>& out) {
  const bool in_image = t.containerSettings && !c.on_host;
  if (in_image && c.runtime.empty())
    out.push_back(
        fmt::format("{}/{}: needs container image {}, but neither docker nor podman "
                    "answers here (--no-container runs it on this machine)",
                    spec.job.id, t.id, t.containerSettings->imageName));
  // Inside an image, mpirun is the image's.
  if (!in_image && runs_mpirun(t) && !on_path("mpirun"))
    out.push_back(fmt::format("{}/{}: runs mpirun, which is not on PATH", spec.job.id, t.id));
}

}  // namespace

bool on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "";
  for (std::size_t start = 0; start <= dirs.size();) {
    auto end = dirs.find(':', start);
    if (end == std::string::npos) end = dirs.size();
    std::string dir = dirs.substr(start, end - start);
    std::string file = (dir.empty() ? "." : dir) + "/" + name;
    if (::access(file.c_str(), X_OK) == 0 && !std::filesystem::is_directory(file)) return true;
    start = end + 1;
  }
  return false;
}

std::vector<std::string> local_warnings(const spec::JobSpec& spec, const ContainerChoice& c) {
  std::vector<std::string> out;
  check_inputs(spec, out);
  for (const auto& t : spec.tasks) check_task(spec, t, c, out);
  return out;
}

std::vector<std::string> batch_warnings(azure::BatchClient& client, const std::string& account,
                                        const spec::JobSpec& spec) {
  const auto& pool = spec.job.poolInfo.poolId;
  if (!pool) return {};
  auto got = azure::get_pool(client, *pool);
  if (got) return {};
  if (got.error().kind == ErrorKind::NotFound)
    return {fmt::format("{}: pool {} does not exist on account {}", spec.job.id, *pool, account)};
  return {fmt::format("{}: could not check pool {}: {}", spec.job.id, *pool, got.error().message)};
}

}  // namespace trainyard
