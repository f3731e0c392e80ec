#include "budget_settings.hpp"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "account_extras.hpp"
#include "settings_error.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

Result<double> amount(const json& j, const std::string& source, const std::string& where) {
  if (!j.is_number() || !std::isfinite(j.get<double>()) || j.get<double>() <= 0)
    return settings_error(source, where, "expected a positive amount in the prices' currency");
  return j.get<double>();
}

Result<void> read_job_budgets(const json& j, Budget& out, const std::string& source,
                              const std::string& where) {
  if (!j.is_object()) return settings_error(source, where, "expected an object of job id: amount");
  for (const auto& [job, value] : j.items()) {
    auto a = amount(value, source, where + "/" + job);
    if (!a) return a.error();
    out.jobs[job] = *a;
  }
  return {};
}

Result<Budget> parse_budget(const json& j, const std::string& source, const std::string& where) {
  if (!j.is_object()) return settings_error(source, where, "expected an object (total, jobs)");
  Budget out;
  for (const auto& [key, value] : j.items()) {
    const auto place = where + "/" + key;
    if (key == "total") {
      auto a = amount(value, source, place);
      if (!a) return a.error();
      out.total = *a;
    } else if (key == "jobs") {
      TY_TRY(read_job_budgets(value, out, source, place));
    } else {
      return settings_error(source, place, "unknown setting (total, jobs)");
    }
  }
  return out;
}

}  // namespace

Result<void> take_account_budgets(json& accounts, std::map<std::string, Budget>& out,
                                  const std::string& source) {
  return take_from_accounts(accounts, "budget", out, source, parse_budget);
}

}  // namespace trainyard
