// libFuzzer: the `--state` journal's reader. Whatever it accepts must come back the same when
// written out again and read back (the emulator writes what it replays).
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "journal.hpp"

using namespace trainyard;

namespace {

bool same(const emu::JournalEntry& a, const emu::JournalEntry& b) {
  return a.seq == b.seq && a.at == b.at && a.method == b.method && a.target == b.target &&
         a.body == b.body;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string text(reinterpret_cast<const char*>(data), size);
  auto entries = emu::Journal::parse(text, "fuzz.journal");
  if (!entries) return 0;
  std::string written;
  for (const auto& e : *entries) written += emu::journal_line(e);
  auto again = emu::Journal::parse(written, "fuzz.journal");
  if (!again || again->size() != entries->size()) std::abort();
  for (size_t i = 0; i < entries->size(); ++i) {
    if (!same((*entries)[i], (*again)[i])) {
      std::fprintf(stderr, "entry %zu changed when written out and read back\n", i);
      std::abort();
    }
  }
  return 0;
}
