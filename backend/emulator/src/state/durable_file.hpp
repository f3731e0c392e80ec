// Files that must survive a crash as a whole: the `--state` snapshot and its journal.
#pragma once

#include <string>
#include <string_view>

#include "core/atomic_file.hpp"

namespace trainyard::emu {

/// Writes `text` to `path.tmp` (mode 0600, synced), renames it over `path` and syncs the
/// directory: a reader or a restart sees the old file or the whole new one. Returns the new
/// file's descriptor, open for appending, or -1 (then `path` is as it was).
int replace_file(const std::string& path, std::string_view text);

}  // namespace trainyard::emu
