// libFuzzer: the text sanitizer over arbitrary bytes, fed whole and in two pieces (the output
// must not depend on how the stream was split), and as one-line text.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <string_view>

#include "core/sanitizer.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  std::string_view bytes(reinterpret_cast<const char*>(data), size);
  trainyard::SanitizerOptions small;
  small.max_line_chars = 80;
  small.max_string_bytes = 16;
  auto whole = trainyard::sanitize_lines(bytes, small);
  trainyard::Sanitizer s(small);
  size_t cut = size ? data[0] % (size + 1) : 0;
  s.feed(bytes.substr(0, cut));
  s.feed(bytes.substr(cut));
  s.finish();
  if (s.take_lines() != whole) std::abort();  // a split changed the output
  (void)trainyard::sanitize_text(bytes);
  return 0;
}
