// Private to trainyard_spec: readers for the Batch wire objects, shared by the shapes that
// batch_json.cpp accepts.
#pragma once

#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

#include "source_map_json.hpp"

namespace trainyard::spec {

/// State shared while reading one file.
struct BatchReadContext {
  const SourceMap& map;
  std::vector<Unmapped>& unmapped;
};

/// Moves the fields of `f` not read yet into `extra` when listed in `keep`, else to unmapped.
void keep_or_report(BatchReadContext& ctx, JsonFields& f, std::vector<RawField>& extra,
                    std::initializer_list<std::string_view> keep, std::string_view owner);

/// A task (`TaskAddParameter`) at `pointer`.
SpecTask read_batch_task(BatchReadContext& ctx, const json& v, const std::string& pointer);
/// A job body (`JobAddParameter`) at `pointer`.
SpecJob read_batch_job(BatchReadContext& ctx, const json& v, const std::string& pointer);
/// `constraints`; `task` allows retentionTime.
Constraints read_constraints(BatchReadContext& ctx, const json& v, const std::string& pointer,
                             bool task);
/// `containerSettings`.
ContainerSettings read_container_settings(BatchReadContext& ctx, const json& v,
                                          const std::string& pointer);

}  // namespace trainyard::spec
