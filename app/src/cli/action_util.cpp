#include "action_util.hpp"

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <sstream>

#include <fmt/format.h>

#include "account_lookup.hpp"
#include "app/cli.hpp"
#include "azure/batch_actions.hpp"
#include "core/json_error.hpp"
#include "core/sanitizer.hpp"
#include "output.hpp"
#include "sync/entity_refresh.hpp"

namespace trainyard {
namespace {

Error batch_only(const std::string& action) {
  return make_error(ErrorKind::Usage,
                    fmt::format("{} is Batch-only: account local is this machine, with one fixed "
                                "pool and node (name a Batch account with --account)",
                                action));
}

Error read_only(const CliState& st, const azure::AccountConfig& a, const Settings& settings) {
  const std::string how =
      st.readonly ? "--readonly was given; run without it to change it"
                  : fmt::format("\"readonly\": true in {}; set it to false there to change it",
                                settings.source.empty() ? "config.json" : settings.source);
  return make_error(ErrorKind::Usage, fmt::format("account {} is read-only ({})", a.name, how));
}

void warn_refresh(const std::string& what, const Error& e) {
  out::eprint("trainyard: warning: done, but refreshing {} in the cache failed: {}", what,
              e.message);
}

void ensure_account_row(ActionSession& s) {
  Account row{s.account.name, s.account.emulator ? AccountKind::Emulator : AccountKind::Batch,
              s.account.endpoint};
  if (auto ok = s.ctx->store->upsert_account(row); !ok) warn_refresh("the account", ok.error());
}

}  // namespace

std::string chosen_account(const std::string& flag, const Settings& settings) {
  if (!flag.empty()) return flag;
  if (const char* env = std::getenv("TRAINYARD_ACCOUNT"); env && *env) return env;
  return settings.default_account.empty() ? kLocalAccount : settings.default_account;
}

void add_account_option(CLI::App* cmd, std::string& account) {
  cmd->add_option("--account", account,
                  "Batch account (default $TRAINYARD_ACCOUNT, else defaultAccount)");
}

Result<ActionSession> open_action(const CliState& st, const std::string& account,
                                  const std::string& action, ActionKind kind) {
  ActionSession s;
  auto ctx = open_context(st.data_dir);
  if (!ctx) return ctx.error();
  s.ctx = std::move(*ctx);
  const std::string name = chosen_account(account, s.ctx->settings);
  if (name == kLocalAccount) return batch_only(action);
  auto found = find_account(s.ctx->settings, name);
  if (!found) return found.error();
  s.account = *found;
  // Refused before the client exists: not even a credential is fetched for a refused change.
  if (kind == ActionKind::Change && (st.readonly || s.account.readonly))
    return read_only(st, s.account, s.ctx->settings);
  auto client = open_batch_client(s.account, s.ctx->clock);
  if (!client) return client.error();
  s.client = std::move(*client);
  return s;
}

int run_action(const CliState& st, const std::string& account, const ActionSpec& spec,
               const std::function<Result<void>(ActionSession&)>& act,
               const std::function<int(ActionSession&)>& after) {
  auto session = open_action(st, account, spec.command, spec.kind);
  if (!session) return report(session.error());
  if (auto ok = act(*session); !ok) return report_failure(spec.what, ok.error());
  return after(*session);
}

Result<void> run_in_session(ActionSession& s, const BatchAction& action) {
  ActionEnv env{*s.client, *s.ctx->store, s.ctx->clock};
  auto r = action.run(env);
  if (!r) return r.error();
  ensure_account_row(s);
  print_done(r->done);
  for (const auto& w : r->warnings) out::eprint("trainyard: warning: {}", w);
  return {};
}

int run_catalogued(const CliState& st, const std::string& account, const std::string& command,
                   const BatchAction& action) {
  auto session = open_action(st, account, command, action.kind);
  if (!session) return report(session.error());
  if (auto ok = run_in_session(*session, action); !ok)
    return report_failure(action.what, ok.error());
  return kExitOk;
}

int report_failure(const std::string& what, const Error& e) {
  out::eprint("trainyard: {}: {}", what, e.message);
  // Only bad input is 2; a malformed answer from the service is the service's failure.
  return e.kind == ErrorKind::Usage ? kExitUsage : kExitFailure;
}

int print_done(const std::string& line) {
  out::line(stdout, line);
  return kExitOk;
}

// The action succeeded either way: a failed refresh is a warning, the next poll mends it.
void refreshed(ActionSession& s, const std::string& what, const Result<void>& r) {
  if (!r) return warn_refresh(what, r.error());
  ensure_account_row(s);
}

void refresh_job(ActionSession& s, const std::string& job) {
  refreshed(s, "job " + job, cache_job(*s.ctx->store, *s.client, job));
}

void refresh_tasks(ActionSession& s, const std::string& job) {
  refreshed(s, "the tasks of job " + job, cache_tasks(*s.ctx->store, *s.client, job));
}

Result<nlohmann::json> read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return make_error(ErrorKind::Usage, fmt::format("{}: cannot read it", path));
  std::stringstream buf;
  buf << in.rdbuf();
  const std::string text = buf.str();
  try {
    return nlohmann::json::parse(text);
  } catch (const nlohmann::json::parse_error& e) {
    auto [line, column] = json_error_position(text, e.byte);
    return make_error(ErrorKind::Usage, fmt::format("{}:{}:{}: not valid JSON ({})", path, line,
                                                    column, json_syntax_reason(e.what())));
  } catch (const nlohmann::json::out_of_range& e) {  // a number too large for a double
    auto [line, column] = json_error_position(text, json_overflow_byte(text, e.what()));
    return make_error(ErrorKind::Usage, fmt::format("{}:{}:{}: not valid JSON ({})", path, line,
                                                    column, json_syntax_reason(e.what())));
  }
}

Result<void> confirm_typed(const std::string& what, const std::string& expected, bool yes) {
  if (yes) return {};
  const Error refused =
      make_error(ErrorKind::Usage, fmt::format("not confirmed (pass --yes, or run it on a "
                                               "terminal and type {} when asked)",
                                               expected));
  if (!::isatty(STDIN_FILENO)) return refused;
  out::text(stderr, fmt::format("{} cannot be undone. Type {} to confirm: ", sanitize_text(what),
                                sanitize_text(expected)));
  std::string line;
  if (!std::getline(std::cin, line) || line != expected) return refused;
  return {};
}

}  // namespace trainyard
