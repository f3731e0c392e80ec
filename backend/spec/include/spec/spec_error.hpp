// One-line validation errors that name the file, line, column and field, shared by every
// job-spec parser: `FILE:LINE:COL: /field: what was expected`.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/result.hpp"

namespace trainyard::spec {

/// A 1-based position in a source file; line 0 means unknown.
struct SourcePos {
  int line = 0;  ///< 1-based line
  int col = 0;   ///< 1-based column (bytes)
};

/// `Error{ErrorKind::Parse, "FILE:LINE:COL: /pointer: what"}`, always one line (newlines in
/// `what` become spaces). An empty pointer is written as `/`.
Error spec_error(std::string_view file, SourcePos pos, std::string_view pointer,
                 std::string_view what);

/// `FILE:LINE:COL /pointer`, the `place` of an Unmapped entry.
std::string spec_place(std::string_view file, SourcePos pos, std::string_view pointer);

/// `FILE:LINE:COL` alone (SpecTask::origin).
std::string spec_location(std::string_view file, SourcePos pos);

/// RFC 6901 escaping of one reference token (`~` → `~0`, `/` → `~1`).
std::string pointer_token(std::string_view key);
/// `parent/key` with the key escaped.
std::string pointer_join(std::string_view parent, std::string_view key);
/// `parent/index`.
std::string pointer_join(std::string_view parent, std::size_t index);

/// The 1-based position of byte `offset` in `text` (clamped to the end).
SourcePos pos_at_offset(std::string_view text, std::size_t offset);

}  // namespace trainyard::spec
