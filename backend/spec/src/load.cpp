#include "spec/load.hpp"

#include <fmt/format.h>

#include "spec/batch_ai.hpp"
#include "spec/batch_json.hpp"
#include "spec/shipyard.hpp"
#include "spec/source_map.hpp"

namespace trainyard::spec {
namespace {

bool ends_with(const std::string& s, const std::string& suffix) {
  return s.size() >= suffix.size() &&
         s.compare(s.size() - suffix.size(), suffix.size(), suffix) == 0;
}

Result<std::vector<JobSpec>> one(Result<JobSpec> r) {
  if (!r) return r.error();
  return std::vector<JobSpec>{std::move(*r)};
}

// `--pool` wins over the file, as `--job-id` does: the jobs run on that existing pool.
Result<std::vector<JobSpec>> on_pool(Result<std::vector<JobSpec>> r,
                                     const std::optional<std::string>& pool) {
  if (!r || !pool) return r;
  for (auto& spec : *r) {
    spec.job.poolInfo.poolId = *pool;
    spec.job.poolInfo.autoPoolSpecification.reset();
  }
  return r;
}

// `--job-id` names the one job of a jobs.yaml, as it names a Batch JSON task array's job.
Result<std::vector<JobSpec>> with_job_id(Result<std::vector<JobSpec>> r, const std::string& path,
                                         const std::optional<std::string>& job_id) {
  if (!r || !job_id) return r;
  if (r->size() != 1)
    return make_error(ErrorKind::Usage,
                      fmt::format("--job-id names one job, but {} has {}", path, r->size()));
  r->front().job.id = *job_id;
  return r;
}

Result<std::vector<JobSpec>> parse_any(const std::string& path, const std::string& text,
                                       const LoadOptions& options) {
  switch (detect_format(path, text)) {
    case SpecFormat::Shipyard: {
      ShipyardOptions o;
      o.pool_node_count = options.pool_node_count;
      return with_job_id(parse_shipyard_jobs(text, path, o), path, options.job_id);
    }
    case SpecFormat::BatchAi: {
      BatchAiOptions o;
      o.job_id = options.job_id;
      o.pool_id = options.pool_id;
      if (options.mount_root) o.mount_root = *options.mount_root;
      return one(parse_batch_ai_json(path, text, o));
    }
    case SpecFormat::BatchJson: {
      BatchJsonOptions o;
      o.job_id = options.job_id;
      return one(parse_batch_json(path, text, o));
    }
  }
  return std::vector<JobSpec>{};
}

}  // namespace

const char* format_name(SpecFormat f) {
  switch (f) {
    case SpecFormat::BatchJson:
      return "Azure Batch JSON";
    case SpecFormat::BatchAi:
      return "Batch AI job.json";
    case SpecFormat::Shipyard:
      return "Batch Shipyard jobs.yaml";
  }
  return "";
}

SpecFormat detect_format(const std::string& path, const std::string& text) {
  if (ends_with(path, ".yaml") || ends_with(path, ".yml")) return SpecFormat::Shipyard;
  if (looks_like_batch_ai(text)) return SpecFormat::BatchAi;
  return SpecFormat::BatchJson;
}

Result<std::vector<JobSpec>> load_job_specs(const std::string& path, const LoadOptions& options) {
  auto text = read_source_file(path);
  if (!text) return text.error();
  return on_pool(parse_any(path, *text, options), options.pool_id);
}

}  // namespace trainyard::spec
