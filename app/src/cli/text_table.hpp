// Internal: aligned plain-text tables for CLI output.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

namespace trainyard {

/// Columns padded to their widest cell (in terminal columns); the last column is not padded.
/// Every cell is sanitized as it is added (one inert line), so no text from outside drives the
/// terminal and the padding counts what is shown.
class TextTable {
 public:
  explicit TextTable(const std::vector<std::string>& header) { add(header); }
  /// Adds a row (as many cells as the header).
  void add(const std::vector<std::string>& row);
  /// Writes the table through the CLI's writer.
  void print(std::FILE* out) const;

 private:
  std::vector<std::vector<std::string>> rows_;
};

}  // namespace trainyard
