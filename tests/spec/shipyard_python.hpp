// Runs /usr/bin/python3 as the oracle for the Shipyard tests (Python's random, repr, format).
#pragma once

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

#include <unistd.h>

namespace trainyard::spec::testing {

/// True when the oracle interpreter exists.
inline bool have_python() {
  return ::access("/usr/bin/python3", X_OK) == 0;
}

/// Runs `script` with /usr/bin/python3 and returns its stdout, or nullopt on failure.
inline std::optional<std::string> run_python(const std::string& script) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("trainyard_oracle_" + std::to_string(::getpid()) + ".py");
  std::ofstream(path) << script;
  const std::string cmd = "/usr/bin/python3 -I " + path.string() + " 2>/dev/null";
  FILE* pipe = ::popen(cmd.c_str(), "r");
  if (pipe == nullptr) return std::nullopt;
  std::string out;
  char buf[65536];
  size_t n = 0;
  while ((n = std::fread(buf, 1, sizeof buf, pipe)) > 0) out.append(buf, n);
  const int rc = ::pclose(pipe);
  std::filesystem::remove(path);
  if (rc != 0) return std::nullopt;
  return out;
}

/// Splits text into lines (no trailing empty line).
inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

}  // namespace trainyard::spec::testing
