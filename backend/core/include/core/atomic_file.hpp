// Replacing a small file whole (a reader sees the old content or all of the new, never a part),
// and the two steps such writers share.
#pragma once

#include <string>
#include <string_view>

#include "core/result.hpp"

namespace trainyard {

/// Writes `content` to `path` through a new temporary file beside it (a unique name, so two
/// writers never share one) that has `mode` before its first byte, then renamed over `path`.
/// With `durable`, the file is flushed to disk before the rename and its folder after it. On
/// failure `path` is as it was, no temporary file is left, and the error names `path`.
Result<void> write_file_atomic(const std::string& path, std::string_view content, int mode,
                               bool durable = true);

/// Writes all of `bytes` to `fd`, going on after a signal; false on any error.
bool write_all(int fd, std::string_view bytes);

/// Makes a rename in the folder holding `path` durable (fsync of the folder; nothing on error).
void sync_folder_of(const std::string& path);

}  // namespace trainyard
