#include "sandbox.hpp"

#include <unistd.h>

#include <filesystem>

namespace trainyard::emu {

std::string node_dir(const std::string& work_dir, const std::string& node) {
  return work_dir + "/nodes/" + node;
}

std::string task_dir(const std::string& work_dir, const std::string& node, const std::string& job,
                     const std::string& task) {
  return node_dir(work_dir, node) + "/workitems/" + job + "/job-1/" + task;
}

std::string startup_dir(const std::string& work_dir, const std::string& node) {
  return node_dir(work_dir, node) + "/startup";
}

std::string prep_dir(const std::string& work_dir, const std::string& node, const std::string& job,
                     bool release) {
  return node_dir(work_dir, node) + "/workitems/" + job + "/job-1/" +
         (release ? "jobrelease" : "jobpreparation");
}

std::string shared_dir(const std::string& work_dir, const std::string& node) {
  return node_dir(work_dir, node) + "/shared";
}

void link_outputs(const std::string& dir, const std::string& run_dir) {
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  for (const char* name : {"stdout.txt", "stderr.txt"}) {
    const std::string link = dir + "/" + name;
    ::unlink(link.c_str());
    std::filesystem::create_symlink(run_dir + "/" + name, link, ec);
  }
}

}  // namespace trainyard::emu
