// Names a formula may use: service variables, functions, time intervals, deallocation options.
#include <algorithm>
#include <array>
#include <cctype>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "autoscale_internal.hpp"
#include "text.hpp"

namespace trainyard::emu::autoscale_detail {

namespace {

struct NamedService {
  std::string_view name;
  Service service;
};

constexpr std::array<NamedService, 11> kServices{{
    {"$PendingTasks", Service::PendingTasks},
    {"$ActiveTasks", Service::ActiveTasks},
    {"$RunningTasks", Service::RunningTasks},
    {"$CurrentDedicatedNodes", Service::CurrentDedicated},
    {"$CurrentDedicated", Service::CurrentDedicated},
    {"$CurrentLowPriorityNodes", Service::CurrentLowPriority},
    {"$TargetDedicatedNodes", Service::TargetDedicated},
    {"$TargetLowPriorityNodes", Service::TargetLowPriority},
    {"$TargetDedicated", Service::TargetDedicatedAlias},
    {"$TargetLowPriority", Service::TargetLowPriorityAlias},
    {"$NodeDeallocationOption", Service::NodeDeallocation},
}};

/// Batch's read-only service variables the emulator has no samples for.
constexpr std::array<std::string_view, 16> kUnsupportedServices{
    "$CPUPercent",     "$WallClockSeconds",   "$MemoryBytes",     "$DiskBytes",
    "$DiskReadBytes",  "$DiskWriteBytes",     "$DiskReadOps",     "$DiskWriteOps",
    "$NetworkInBytes", "$NetworkOutBytes",    "$SampleNodeCount", "$SucceededTasks",
    "$FailedTasks",    "$PreemptedNodeCount", "$UsableNodeCount", "$TaskSlotsPerNode",
};

struct NamedBuiltin {
  std::string_view name;
  Builtin builtin;
};

constexpr std::array<NamedBuiltin, 9> kBuiltins{{
    {"min", Builtin::Min},
    {"max", Builtin::Max},
    {"avg", Builtin::Avg},
    {"sum", Builtin::Sum},
    {"len", Builtin::Len},
    {"range", Builtin::Range},
    {"floor", Builtin::Floor},
    {"ceil", Builtin::Ceil},
    {"round", Builtin::Round},
}};

/// Batch functions outside the subset.
constexpr std::array<std::string_view, 10> kUnsupportedFunctions{
    "lg", "ln", "log", "norm", "percentile", "rand", "std", "stop", "time", "val"};

struct NamedInterval {
  std::string_view name;
  double seconds;
};

constexpr std::array<NamedInterval, 10> kIntervals{{
    {"TimeInterval_Zero", 0},
    {"TimeInterval_100ns", 1e-7},
    {"TimeInterval_Microsecond", 1e-6},
    {"TimeInterval_Millisecond", 1e-3},
    {"TimeInterval_Second", 1},
    {"TimeInterval_Minute", 60},
    {"TimeInterval_Hour", 3600},
    {"TimeInterval_Day", 86400},
    {"TimeInterval_Week", 604800},
    {"TimeInterval_Year", 31536000},  // 365 days
}};

constexpr std::array<std::string_view, 4> kDeallocationOptions{"requeue", "terminate",
                                                               "taskcompletion", "retaineddata"};

}  // namespace

std::optional<Service> find_service(std::string_view name) {
  for (const auto& s : kServices) {
    if (s.name == name) return s.service;
  }
  return std::nullopt;
}

bool is_unsupported_service(std::string_view name) {
  return std::find(kUnsupportedServices.begin(), kUnsupportedServices.end(), name) !=
         kUnsupportedServices.end();
}

std::optional<std::string_view> find_deallocation(std::string_view name) {
  for (auto opt : kDeallocationOptions) {
    if (iequals(opt, name)) return opt;
  }
  return std::nullopt;
}

std::optional<Builtin> find_builtin(std::string_view name) {
  for (const auto& b : kBuiltins) {
    if (b.name == name) return b.builtin;
  }
  return std::nullopt;
}

bool is_unsupported_function(std::string_view name) {
  return std::find(kUnsupportedFunctions.begin(), kUnsupportedFunctions.end(), name) !=
         kUnsupportedFunctions.end();
}

std::optional<double> find_interval(std::string_view name) {
  for (const auto& i : kIntervals) {
    if (i.name == name) return i.seconds;
  }
  return std::nullopt;
}

bool is_sample(Service s) {
  return s == Service::PendingTasks || s == Service::ActiveTasks || s == Service::RunningTasks;
}

bool is_writable(Service s) {
  return s == Service::TargetDedicated || s == Service::TargetLowPriority ||
         s == Service::TargetDedicatedAlias || s == Service::TargetLowPriorityAlias ||
         s == Service::NodeDeallocation;
}

Failure make_failure(Pos pos, std::string detail, std::string_view code) {
  Failure f;
  f.code = code;
  if (code == kTooLong) {
    f.summary = kTooLongSummary;
  } else if (code == kInsufficientData) {
    f.summary = kInsufficientSummary;
  } else if (code == kInvalidSettings) {
    f.summary = kInvalidSettingsSummary;
  }
  f.detail = std::move(detail);
  f.pos = pos;
  return f;
}

}  // namespace trainyard::emu::autoscale_detail
