#include "local/exit_conditions.hpp"

#include <nlohmann/json.hpp>

#include "core/text.hpp"

namespace trainyard {

namespace {

using nlohmann::json;

// An exitOptions' jobAction; absent (or unknown) is the service's default for the exit code.
ExitJobAction action_of(const json& options, bool zero_exit) {
  const ExitJobAction fallback = zero_exit ? ExitJobAction::None : ExitJobAction::Terminate;
  if (!options.is_object()) return fallback;
  auto it = options.find("jobAction");
  if (it == options.end() || !it->is_string()) return fallback;
  const std::string a = ascii_lowercase(it->get<std::string>());
  if (a == "none") return ExitJobAction::None;
  if (a == "disable") return ExitJobAction::Disable;
  if (a == "terminate") return ExitJobAction::Terminate;
  return fallback;
}

json options_of(const json& mapping) {
  return mapping.is_object() ? mapping.value("exitOptions", json::object()) : json::object();
}

std::optional<ExitJobAction> by_exit_code(const json& ec, int code) {
  auto codes = ec.value("exitCodes", json::array());
  for (const auto& e : codes.is_array() ? codes : json::array()) {
    auto c = e.is_object() ? e.find("code") : e.end();
    if (c != e.end() && c->is_number_integer() && c->get<int64_t>() == code)
      return action_of(options_of(e), code == 0);
  }
  auto ranges = ec.value("exitCodeRanges", json::array());
  for (const auto& r : ranges.is_array() ? ranges : json::array()) {
    if (!r.is_object()) continue;
    auto start = r.find("start"), end = r.find("end");
    if (start == r.end() || end == r.end() || !start->is_number_integer() ||
        !end->is_number_integer())
      continue;
    if (code >= start->get<int64_t>() && code <= end->get<int64_t>())
      return action_of(options_of(r), code == 0);
  }
  return std::nullopt;
}

bool upload_failure(const TaskEnd& end) {
  return end.failure_code.rfind("FileUpload", 0) == 0;
}

}  // namespace

ExitJobAction exit_job_action(std::string_view exit_conditions, const TaskEnd& end) {
  json ec = exit_conditions.empty() ? json::object() : json::parse(exit_conditions, nullptr, false);
  if (!ec.is_object()) ec = json::object();
  if (end.exit_code)
    if (auto a = by_exit_code(ec, *end.exit_code)) return *a;
  if (!end.failed) return ExitJobAction::None;
  if (upload_failure(end) && ec.contains("fileUploadError"))
    return action_of(ec["fileUploadError"], false);
  if (!end.exit_code && ec.contains("preProcessingError"))
    return action_of(ec["preProcessingError"], false);
  if (ec.contains("default")) return action_of(ec["default"], false);
  return ExitJobAction::Terminate;
}

const char* to_string(ExitJobAction a) {
  switch (a) {
    case ExitJobAction::None:
      return "none";
    case ExitJobAction::Disable:
      return "disable";
    case ExitJobAction::Terminate:
      return "terminate";
  }
  return "none";
}

}  // namespace trainyard
