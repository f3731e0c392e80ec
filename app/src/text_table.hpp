// Internal: aligned plain-text tables for CLI output.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace trainyard {

/// Columns padded to their widest cell; the last column is not padded.
class TextTable {
 public:
  explicit TextTable(std::vector<std::string> header) { rows_.push_back(std::move(header)); }
  /// Adds a row (as many cells as the header).
  void add(std::vector<std::string> row) { rows_.push_back(std::move(row)); }
  /// Writes the table.
  void print(std::FILE* out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace trainyard
