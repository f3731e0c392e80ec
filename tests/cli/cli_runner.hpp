// Runs the built trainyard binary as a child process and captures what it prints.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace trainyard::clitest {

/// How a finished child ended and what it wrote.
struct Outcome {
  int code = -1;  ///< exit status, 128+N for signal N, -1 when it had to be killed
  std::string out;
  std::string err;
};

/// Runs `exe args...` with the given environment and stdin from /dev/null; kills it after
/// `timeout`.
Outcome run_process(const std::string& exe, const std::vector<std::string>& args,
                    const std::vector<std::string>& env,
                    std::chrono::seconds timeout = std::chrono::seconds(60));

/// This process's environment without the entries whose names are in `drop`.
std::vector<std::string> environment_without(const std::vector<std::string>& drop);

/// Processes (other than this one) whose command line mentions `needle`.
std::vector<pid_t> processes_mentioning(const std::string& needle);

/// The lines of `text` (a final newline does not start an empty line).
std::vector<std::string> lines_of(const std::string& text);

/// The whole file, or an empty string when it cannot be read.
std::string read_file(const std::string& path);

/// True while `pid` exists and is not a zombie.
bool process_alive(pid_t pid);

}  // namespace trainyard::clitest
