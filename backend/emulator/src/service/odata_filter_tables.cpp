// The per-list `$filter` tables: which properties each Batch list accepts, their types, and the
// operators allowed on each.
//
// Source: "OData filters in Azure Batch",
// https://learn.microsoft.com/rest/api/batchservice/odata-filters-in-batch (current page), and its
// markdown source (revision of 2018-08-27) for the sections the stored copy of the page did not
// show in full (pools, jobs, tasks, job preparation/release status, the tail of job schedules).
#include <array>
#include <cctype>
#include <span>

#include "emulator/odata_filter.hpp"
#include "text.hpp"

namespace trainyard::emu {
namespace {

constexpr uint8_t bit(FilterOp op) {
  return static_cast<uint8_t>(1u << static_cast<unsigned>(op));
}

constexpr uint8_t kEq = bit(FilterOp::Eq);
constexpr uint8_t kEqNe = kEq | bit(FilterOp::Ne);
// "eq, ne, ge, gt, le, lt" in the docs.
constexpr uint8_t kOrdered =
    kEqNe | bit(FilterOp::Gt) | bit(FilterOp::Ge) | bit(FilterOp::Lt) | bit(FilterOp::Le);
constexpr uint8_t kStarts = bit(FilterOp::StartsWith);
constexpr uint8_t kAll = kOrdered | kStarts;

using T = FilterType;

// The current page lists `state` as "eq, ne" for nodes, jobs in a schedule and job schedules; the
// 2018 source said "eq" everywhere. Pools, jobs and tasks follow the current page's pattern, while
// the nested states (`startTaskInfo/state`, job prep/release `…/state`) stay "eq" as the current
// page still lists `startTaskInfo/state`.
constexpr std::array kPools{
    FilterProperty{"id", T::Text, kAll},
    FilterProperty{"state", T::Name, kEqNe},
    FilterProperty{"stateTransitionTime", T::Time, kOrdered},
    FilterProperty{"allocationState", T::Name, kEq},
    FilterProperty{"allocationStateTransitionTime", T::Time, kOrdered},
    FilterProperty{"creationTime", T::Time, kOrdered},
    FilterProperty{"enableAutoScale", T::Bool, kEqNe},
    FilterProperty{"lastModified", T::Time, kOrdered},
    // VM sizes are case-insensitive on the service (it lowercases them).
    FilterProperty{"vmSize", T::Name, kEqNe},
    FilterProperty{"enableInterNodeCommunication", T::Bool, kEqNe},
};

constexpr std::array kNodes{
    FilterProperty{"state", T::Name, kEqNe},
    FilterProperty{"stateTransitionTime", T::Time, kOrdered},
    FilterProperty{"lastBootTime", T::Time, kOrdered},
    FilterProperty{"allocationTime", T::Time, kOrdered},
    FilterProperty{"startTaskInfo/state", T::Name, kEq},
    FilterProperty{"startTaskInfo/result", T::Name, kEqNe},
    FilterProperty{"startTaskInfo/exitCode", T::Int, kOrdered},
    FilterProperty{"startTaskInfo/startTime", T::Time, kOrdered},
    FilterProperty{"startTaskInfo/endTime", T::Time, kOrdered},
};

// "List jobs"; "List jobs in a job schedule" is the same table without `id`, and ListKind has one
// kind for both, so the wider table serves both.
constexpr std::array kJobs{
    FilterProperty{"id", T::Text, kAll},
    FilterProperty{"state", T::Name, kEqNe},
    FilterProperty{"stateTransitionTime", T::Time, kOrdered},
    FilterProperty{"creationTime", T::Time, kOrdered},
    FilterProperty{"lastModified", T::Time, kOrdered},
    FilterProperty{"executionInfo/startTime", T::Time, kOrdered},
    FilterProperty{"executionInfo/endTime", T::Time, kOrdered},
    FilterProperty{"executionInfo/poolId", T::Text, kAll},
};

constexpr std::array kJobSchedules{
    FilterProperty{"id", T::Text, kAll},
    FilterProperty{"state", T::Name, kEqNe},
    FilterProperty{"stateTransitionTime", T::Time, kOrdered},
    FilterProperty{"creationTime", T::Time, kOrdered},
    FilterProperty{"lastModified", T::Time, kOrdered},
    FilterProperty{"executionInfo/endTime", T::Time, kOrdered},
    FilterProperty{"schedule/doNotRunUntil", T::Time, kOrdered},
    FilterProperty{"schedule/doNotRunAfter", T::Time, kOrdered},
};

// Tasks say `lastModifiedTime` (not `lastModified`) in the docs' table; kept as written.
constexpr std::array kTasks{
    FilterProperty{"id", T::Text, kAll},
    FilterProperty{"state", T::Name, kEqNe},
    FilterProperty{"stateTransitionTime", T::Time, kOrdered},
    FilterProperty{"creationTime", T::Time, kOrdered},
    FilterProperty{"lastModifiedTime", T::Time, kOrdered},
    FilterProperty{"executionInfo/startTime", T::Time, kOrdered},
    FilterProperty{"executionInfo/endTime", T::Time, kOrdered},
    FilterProperty{"executionInfo/exitCode", T::Int, kOrdered},
    FilterProperty{"executionInfo/result", T::Name, kEqNe},
};

constexpr std::array kFiles{
    FilterProperty{"name", T::Text, kStarts},
};

constexpr std::array kNodeCounts{
    FilterProperty{"poolId", T::Text, kEq},
};

constexpr std::array kSupportedImages{
    FilterProperty{"osType", T::Name, kEqNe},
    FilterProperty{"verificationType", T::Name, kEqNe},
    FilterProperty{"nodeAgentSKUId", T::Name, kEqNe},
};

constexpr std::array kJobPrepRelease{
    FilterProperty{"poolId", T::Text, kEqNe},
    FilterProperty{"nodeId", T::Text, kEqNe},
    FilterProperty{"jobPreparationTaskExecutionInfo/state", T::Name, kEq},
    FilterProperty{"jobPreparationTaskExecutionInfo/startTime", T::Time, kOrdered},
    FilterProperty{"jobPreparationTaskExecutionInfo/endTime", T::Time, kOrdered},
    FilterProperty{"jobPreparationTaskExecutionInfo/exitCode", T::Int, kOrdered},
    FilterProperty{"jobPreparationTaskExecutionInfo/result", T::Name, kEqNe},
    FilterProperty{"jobReleaseTaskExecutionInfo/state", T::Name, kEq},
    FilterProperty{"jobReleaseTaskExecutionInfo/startTime", T::Time, kOrdered},
    FilterProperty{"jobReleaseTaskExecutionInfo/endTime", T::Time, kOrdered},
    FilterProperty{"jobReleaseTaskExecutionInfo/exitCode", T::Int, kOrdered},
    FilterProperty{"jobReleaseTaskExecutionInfo/result", T::Name, kEqNe},
};

std::span<const FilterProperty> table(ListKind list) {
  switch (list) {
    case ListKind::Pools:
      return kPools;
    case ListKind::Nodes:
      return kNodes;
    case ListKind::Jobs:
      return kJobs;
    case ListKind::JobSchedules:
      return kJobSchedules;
    case ListKind::Tasks:
      return kTasks;
    case ListKind::TaskFiles:
    case ListKind::NodeFiles:
      return kFiles;
    case ListKind::NodeCounts:
      return kNodeCounts;
    case ListKind::SupportedImages:
      return kSupportedImages;
    case ListKind::JobPrepRelease:
      return kJobPrepRelease;
  }
  return {};
}

}  // namespace

const FilterProperty* find_filter_property(ListKind list, std::string_view name) {
  for (const FilterProperty& p : table(list)) {
    if (iequals(p.name, name)) return &p;
  }
  return nullptr;
}

std::vector<FilterProperty> filter_properties(ListKind list) {
  auto rows = table(list);
  return {rows.begin(), rows.end()};
}

std::string_view filter_list_noun(ListKind list) {
  switch (list) {
    case ListKind::Pools:
      return "pools";
    case ListKind::Nodes:
      return "compute nodes";
    case ListKind::Jobs:
      return "jobs";
    case ListKind::JobSchedules:
      return "job schedules";
    case ListKind::Tasks:
      return "tasks";
    case ListKind::TaskFiles:
      return "task files";
    case ListKind::NodeFiles:
      return "compute node files";
    case ListKind::NodeCounts:
      return "pool node counts";
    case ListKind::SupportedImages:
      return "supported images";
    case ListKind::JobPrepRelease:
      return "job preparation and release task status";
  }
  return "entities";
}

std::string_view filter_op_name(FilterOp op) {
  switch (op) {
    case FilterOp::Eq:
      return "eq";
    case FilterOp::Ne:
      return "ne";
    case FilterOp::Gt:
      return "gt";
    case FilterOp::Ge:
      return "ge";
    case FilterOp::Lt:
      return "lt";
    case FilterOp::Le:
      return "le";
    case FilterOp::StartsWith:
      return "startswith";
  }
  return "?";
}

}  // namespace trainyard::emu
