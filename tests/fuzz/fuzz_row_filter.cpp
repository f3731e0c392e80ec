// libFuzzer: the TUI's filter language (terms, fields with comparisons and globs, `!`, a
// `/regex/`), and matching a parsed filter against a row with a few fields.
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "row_filter.hpp"

using namespace trainyard;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size > 4096) return 0;
  std::string_view text(reinterpret_cast<const char*>(data), size);
  auto filter = parse_row_filter(text);
  if (!filter) return 0;
  const std::string row = "task-0001 completed 3 gpu-pool python3 train.py --lr 0.1";
  (void)row_matches(*filter, row, [](const std::string& field) {
    if (field == "state") return std::optional<std::vector<std::string>>({"completed", "failed"});
    if (field == "exit") return std::optional<std::vector<std::string>>({"3"});
    if (field == "pool") return std::optional<std::vector<std::string>>({"gpu-pool", ""});
    return std::optional<std::vector<std::string>>();
  });
  (void)glob_matches_ci(text, row);
  return 0;
}
