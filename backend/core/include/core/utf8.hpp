// Strict UTF-8 validation for text that must be valid before it is parsed or written as JSON.
#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace trainyard {

/// The offset of the first byte that does not begin a well-formed UTF-8 sequence (Unicode
/// Table 3-7: no overlongs, no surrogates, nothing past U+10FFFF), or nullopt when all is valid.
std::optional<std::size_t> first_invalid_utf8(std::string_view text);

}  // namespace trainyard
