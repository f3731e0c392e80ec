#include "budget_settings.hpp"

#include <cmath>

#include <fmt/format.h>

namespace trainyard {
namespace {

using nlohmann::json;

Error bad(const std::string& source, const std::string& where, const std::string& what) {
  return make_error(ErrorKind::Parse, fmt::format("{}: {}: {}", source, where, what));
}

Result<double> amount(const json& j, const std::string& source, const std::string& where) {
  if (!j.is_number() || !std::isfinite(j.get<double>()) || j.get<double>() <= 0)
    return bad(source, where, "expected a positive amount in the prices' currency");
  return j.get<double>();
}

Result<void> read_job_budgets(const json& j, Budget& out, const std::string& source,
                              const std::string& where) {
  if (!j.is_object()) return bad(source, where, "expected an object of job id: amount");
  for (const auto& [job, value] : j.items()) {
    auto a = amount(value, source, where + "/" + job);
    if (!a) return a.error();
    out.jobs[job] = *a;
  }
  return {};
}

Result<Budget> parse_budget(const json& j, const std::string& source, const std::string& where) {
  if (!j.is_object()) return bad(source, where, "expected an object (total, jobs)");
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
      return bad(source, place, "unknown setting (total, jobs)");
    }
  }
  return out;
}

}  // namespace

Result<void> take_account_budgets(json& accounts, std::map<std::string, Budget>& out,
                                  const std::string& source) {
  if (!accounts.is_array()) return {};  // parse_accounts says what is wrong
  for (size_t i = 0; i < accounts.size(); ++i) {
    auto& a = accounts[i];
    if (!a.is_object() || !a.contains("budget")) continue;
    auto budget = parse_budget(a["budget"], source, fmt::format("/accounts/{}/budget", i));
    if (!budget) return budget.error();
    if (a.contains("name") && a["name"].is_string()) out[a["name"].get<std::string>()] = *budget;
    a.erase("budget");
  }
  return {};
}

}  // namespace trainyard
