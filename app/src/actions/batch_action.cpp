// What every Batch action shares: its outcome's text, and its form as a TUI worker command.
#include "batch_action.hpp"

#include <fmt/format.h>

#include "local/engine.hpp"

namespace trainyard {

std::string status_text(const ActionOutcome& o) {
  std::string out = o.done;
  for (const auto& w : o.warnings) out += "; warning: " + w;
  return out;
}

BatchCommand as_command(BatchAction action, const Clock& clock) {
  return [run = std::move(action.run), &clock](azure::BatchClient& c,
                                               Store& s) -> Result<std::string> {
    ActionEnv env{c, s, clock};
    auto r = run(env);
    if (!r) return r.error();
    return status_text(*r);
  };
}

Result<ActionOutcome> changed(const Result<void>& change,
                              const std::function<Result<void>()>& refresh, std::string done,
                              const std::string& refreshed) {
  if (!change) return change.error();
  ActionOutcome out{std::move(done), {}};
  if (auto r = refresh(); !r)
    out.warnings.push_back(
        fmt::format("refreshing {} in the cache failed: {}", refreshed, r.error().message));
  return out;
}

namespace act {

Result<std::string> request_id(const nlohmann::json& request, const char* what) {
  const auto& id = request.is_object() ? request.value("id", nlohmann::json()) : nlohmann::json();
  if (!id.is_string() || !is_valid_batch_id(id.get<std::string>()))
    return make_error(ErrorKind::Usage,
                      fmt::format("/id: a {} id (1-64 letters, digits, - and _) is needed", what));
  return id.get<std::string>();
}

}  // namespace act
}  // namespace trainyard
