// Internal: the shipped theme files (themes/files/*.json), compiled into the library.
#pragma once

#include <string_view>
#include <vector>

namespace trainyard {

struct ShippedTheme {
  std::string_view name;  ///< the file's name without `.json`
  std::string_view json;  ///< the file's text
};

/// Every shipped theme, by name in file order.
const std::vector<ShippedTheme>& shipped_themes();

}  // namespace trainyard
