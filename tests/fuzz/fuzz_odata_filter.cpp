// libFuzzer: the emulator's OData $filter parser for every list, and matching a parsed filter
// against an entity whose properties hold values of every type (or are missing).
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "emulator/odata_filter.hpp"

using namespace trainyard::emu;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  auto list = static_cast<ListKind>(data[0] % 10);
  std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
  auto filter = Filter::parse(text, list);
  if (!filter) return 0;
  int n = 0;
  (void)filter->matches([&](std::string_view) -> FilterValue {
    switch (n++ % 4) {
      case 0:
        return FilterValue{};
      case 1:
        return FilterValue{std::string("abc")};
      case 2:
        return FilterValue{int64_t{3}};
      default:
        return FilterValue{true};
    }
  });
  return 0;
}
