#include "text_table.hpp"

#include <algorithm>

#include "core/sanitizer.hpp"
#include "output.hpp"

namespace trainyard {

void TextTable::add(const std::vector<std::string>& row) {
  std::vector<std::string> shown;
  shown.reserve(row.size());
  for (const auto& cell : row) shown.push_back(sanitize_text(cell));
  rows_.push_back(std::move(shown));
}

void TextTable::print(std::FILE* out) const {
  std::vector<size_t> widths;
  for (const auto& row : rows_) {
    widths.resize(std::max(widths.size(), row.size()));
    for (size_t i = 0; i < row.size(); ++i) widths[i] = std::max(widths[i], display_width(row[i]));
  }
  for (const auto& row : rows_) {
    std::string line;
    for (size_t i = 0; i < row.size(); ++i) {
      line += row[i];
      if (i + 1 < row.size()) line += std::string(widths[i] - display_width(row[i]) + 2, ' ');
    }
    out::line(out, line);
  }
}

}  // namespace trainyard
