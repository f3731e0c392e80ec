// Snapshot checks: a Canvas's text and role map against files under tests/snapshots/.
//
// UPDATE_SNAPSHOTS=1 rewrites the files (never when CI is set). A missing snapshot fails.
// A mismatch writes `<case>.actual.txt` (or `<case>.roles.actual.txt`) beside the snapshot.
#pragma once

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <string>

#include "widgets/canvas.hpp"

namespace trainyard::snapshot {

/// True when snapshots should be rewritten: UPDATE_SNAPSHOTS=1 and not under CI.
inline bool updating() {
  const char* update = std::getenv("UPDATE_SNAPSHOTS");
  return update != nullptr && std::string(update) == "1" && std::getenv("CI") == nullptr;
}

/// The file's content, or nullopt when it cannot be read.
inline std::optional<std::string> read(const std::filesystem::path& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return std::nullopt;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

inline void write(const std::filesystem::path& path, const std::string& text) {
  std::filesystem::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

inline std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  return lines;
}

/// A line diff: `-` expected, `+` actual, with 1-based line numbers.
inline std::string diff(const std::string& expected, const std::string& actual) {
  auto e = lines_of(expected), a = lines_of(actual);
  std::ostringstream out;
  for (std::size_t i = 0; i < std::max(e.size(), a.size()); ++i) {
    std::string el = i < e.size() ? e[i] : "<none>", al = i < a.size() ? a[i] : "<none>";
    if (el == al) continue;
    out << "line " << i + 1 << ":\n-" << el << "\n+" << al << "\n";
  }
  return out.str();
}

/// `case.txt` → `case.actual.txt`.
inline std::filesystem::path actual_path(std::filesystem::path path) {
  return path.replace_extension(".actual.txt");
}

/// Compares `actual` with the file (or rewrites it when updating).
inline ::testing::AssertionResult matches_file(const std::filesystem::path& path,
                                               const std::string& actual) {
  if (updating()) {
    write(path, actual);
    return ::testing::AssertionSuccess();
  }
  auto expected = read(path);
  if (!expected) {
    return ::testing::AssertionFailure()
           << "missing snapshot " << path << " (create it with UPDATE_SNAPSHOTS=1)";
  }
  if (*expected == actual) {
    std::filesystem::remove(actual_path(path));
    return ::testing::AssertionSuccess();
  }
  write(actual_path(path), actual);
  return ::testing::AssertionFailure()
         << "snapshot " << path << " differs (actual in " << actual_path(path) << "):\n"
         << diff(*expected, actual);
}

/// The roles a canvas uses, one `letter name` per line, sorted by letter.
inline std::string role_legend(const Canvas& canvas) {
  std::map<char, std::string_view> used;
  for (int y = 0; y < canvas.height(); ++y) {
    for (int x = 0; x < canvas.width(); ++x) {
      Role role = canvas.at(x, y).role;
      used[role_letter(role)] = role_name(role);
    }
  }
  std::string out;
  for (const auto& [letter, name] : used)
    out += std::string(1, letter) + " " + std::string(name) + "\n";
  return out;
}

/// Checks tests/snapshots/<widget>/<name>.txt and <name>.roles.txt.
inline void expect_snapshot(const Canvas& canvas, const std::string& widget,
                            const std::string& name) {
  std::filesystem::path dir = std::filesystem::path(SNAPSHOT_DIR) / widget;
  EXPECT_TRUE(matches_file(dir / (name + ".txt"), canvas.to_text() + "\n"));
  EXPECT_TRUE(matches_file(dir / (name + ".roles.txt"),
                           canvas.to_role_map() + "\n--\n" + role_legend(canvas)));
}

}  // namespace trainyard::snapshot
