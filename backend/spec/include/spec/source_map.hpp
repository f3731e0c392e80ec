// Positions of the values of a parsed document, by JSON pointer, so that semantic errors found
// after parsing (wrong type, bad enum) still name the line and column where the value is.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <unordered_map>

#include "core/result.hpp"
#include "spec/spec_error.hpp"

namespace trainyard::spec {

/// Pointer → position index for one file. JSON files are indexed by index_json(); YAML parsers
/// fill it with add() from `YAML::Node::Mark()` (0-based there, 1-based here).
class SourceMap {
 public:
  SourceMap() = default;
  /// An empty map for `file` (the name used in messages).
  explicit SourceMap(std::string file) : file_(std::move(file)) {}

  /// Records where the value at `pointer` starts; the first record wins.
  void add(std::string pointer, SourcePos pos) { pos_.try_emplace(std::move(pointer), pos); }
  /// Position of `pointer`, or of its nearest recorded ancestor (for missing fields).
  SourcePos pos(std::string_view pointer) const;
  /// The file name used in messages.
  const std::string& file() const { return file_; }
  /// Number of recorded pointers.
  std::size_t size() const { return pos_.size(); }

  /// spec_error() at the position of `pointer`.
  Error error(std::string_view pointer, std::string_view what) const;
  /// spec_place() at the position of `pointer`.
  std::string place(std::string_view pointer) const;
  /// spec_location() at the position of `pointer`.
  std::string location(std::string_view pointer) const;

 private:
  std::string file_;
  std::unordered_map<std::string, SourcePos> pos_;
};

/// Indexes the JSON text `text` (already known to be syntactically valid) into a SourceMap.
/// Fails with a positioned error when an object repeats a key, which JSON parsers accept
/// silently but which loses one of the user's values.
Result<SourceMap> index_json(std::string file, std::string_view text);

/// Reads a spec file whole; `ErrorKind::Io` naming the path when it cannot be read.
Result<std::string> read_source_file(const std::filesystem::path& path);

}  // namespace trainyard::spec
