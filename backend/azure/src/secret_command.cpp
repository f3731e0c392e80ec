#include "secret_command.hpp"

#include <chrono>
#include <map>

#include <fmt/format.h>

#include "bearer_credential.hpp"
#include "core/child_process.hpp"

namespace trainyard::azure {

namespace {

constexpr auto kLimit = std::chrono::seconds(30);

}  // namespace

Result<std::string> run_secret_command(const std::string& command, const std::string& account) {
  CapturedRun run;
  run.argv = {"/bin/sh", "-c", command};
  run.deadline = std::chrono::steady_clock::now() + kLimit;
  auto r = run_captured(run);
  if (!r)
    return make_error(ErrorKind::Io, fmt::format("account {}: cannot run keyCommand", account));
  if (r->timed_out)
    return make_error(ErrorKind::Auth,
                      fmt::format("account {}: keyCommand took longer than 30 s", account));
  if (r->exit_status != 0) {
    // Its own complaint (stderr); stdout may hold the secret, so it never goes into a message.
    std::string why = first_line_for_message(r->err);
    return make_error(ErrorKind::Auth,
                      fmt::format("account {}: keyCommand failed (exit status {}){}{}", account,
                                  r->exit_status, why.empty() ? "" : ": ", why));
  }
  std::string text = std::move(r->out);
  while (!text.empty() && (text.back() == '\n' || text.back() == '\r')) text.pop_back();
  if (text.empty())
    return make_error(ErrorKind::Auth,
                      fmt::format("account {}: keyCommand printed nothing", account));
  return text;
}

Result<std::string> resolve_secret(const std::string& inline_value, const std::string& env_name,
                                   const std::string& command,
                                   const std::map<std::string, std::string>& env,
                                   const std::string& account) {
  if (!inline_value.empty()) return inline_value;
  if (!env_name.empty()) {
    auto it = env.find(env_name);
    if (it == env.end() || it->second.empty()) {
      return make_error(ErrorKind::Auth,
                        fmt::format("account {}: ${} is not set", account, env_name));
    }
    return it->second;
  }
  if (!command.empty()) return run_secret_command(command, account);
  return make_error(ErrorKind::Auth, fmt::format("account {}: no secret configured", account));
}

}  // namespace trainyard::azure
