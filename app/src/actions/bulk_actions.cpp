// One action over several rows: every row is tried, and the outcome counts them.
#include <optional>

#include <fmt/format.h>

#include "bulk_action.hpp"

namespace trainyard::act {
namespace {

// At most this many failures are named; the rest are counted only.
constexpr size_t kNamedFailures = 3;

// Runs row `i` of `count` by `run` (its error, or none), then the outcome: bulk_text, an
// error of the first failure's kind when any row failed.
template <typename Run>
Result<std::string> run_rows(const std::string& what, size_t count, Run run) {
  size_t done = 0;
  std::vector<std::string> failures;
  ErrorKind kind = ErrorKind::Internal;
  for (size_t i = 0; i < count; ++i) {
    auto error = run(i);
    if (!error) {
      ++done;
      continue;
    }
    if (failures.empty()) kind = error->kind;
    failures.push_back(error->message);
  }
  auto text = bulk_text(what, done, failures);
  if (!failures.empty()) return make_error(kind, text);
  return text;
}

}  // namespace

std::string bulk_text(const std::string& what, size_t done,
                      const std::vector<std::string>& failures) {
  if (failures.empty()) return fmt::format("{}: {} done", what, done);
  std::string named;
  for (size_t i = 0; i < failures.size() && i < kNamedFailures; ++i)
    named += (i ? "; " : "") + failures[i];
  if (failures.size() > kNamedFailures) named += "; …";
  return fmt::format("{}: {} done, {} failed ({})", what, done, failures.size(), named);
}

BatchAction for_each_row(std::string what,
                         std::vector<std::pair<std::string, BatchAction>> actions) {
  ActionKind kind = ActionKind::Read;
  for (const auto& a : actions)
    if (a.second.kind == ActionKind::Change) kind = ActionKind::Change;
  auto run = [what, actions = std::move(actions)](ActionEnv& env) -> Result<ActionOutcome> {
    ActionOutcome outcome;
    auto text = run_rows(what, actions.size(), [&](size_t i) -> std::optional<Error> {
      auto r = actions[i].second.run(env);
      if (!r) return make_error(r.error().kind, actions[i].first + ": " + r.error().message);
      for (auto& w : r->warnings) outcome.warnings.push_back(std::move(w));
      return std::nullopt;
    });
    if (!text) return text.error();
    outcome.done = std::move(*text);
    return outcome;
  };
  return {what, kind, std::move(run)};
}

LocalAction for_each_run(std::string what,
                         std::vector<std::pair<std::string, LocalAction>> actions) {
  auto run = [what, actions = std::move(actions)](LocalEngine& e) -> Result<std::string> {
    return run_rows(what, actions.size(), [&](size_t i) -> std::optional<Error> {
      auto r = actions[i].second.run(e);
      if (!r) return make_error(r.error().kind, actions[i].first + ": " + r.error().message);
      return std::nullopt;
    });
  };
  return {std::move(what), std::move(run)};
}

}  // namespace trainyard::act
