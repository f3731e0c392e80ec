// Tokens from the `az` CLI's login: runs `az account get-access-token` without a shell, with a
// time limit, and caches the token (bearer_credential.cpp) since each run costs a second or more.
#include <charconv>
#include <chrono>
#include <cstdio>
#include <ctime>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "azure/credentials.hpp"
#include "bearer_credential.hpp"
#include "core/child_process.hpp"

namespace trainyard::azure {

namespace {

using nlohmann::json;

// `2023-11-14 12:34:56.123456` in local time, the CLI's format before `expires_on` (2.54).
std::optional<Timestamp> parse_local_time(const std::string& text) {
  std::tm tm{};
  int fields = std::sscanf(text.c_str(), "%4d-%2d-%2d %2d:%2d:%2d", &tm.tm_year, &tm.tm_mon,
                           &tm.tm_mday, &tm.tm_hour, &tm.tm_min, &tm.tm_sec);
  if (fields != 6) return std::nullopt;
  tm.tm_year -= 1900;
  tm.tm_mon -= 1;
  tm.tm_isdst = -1;  // let the zone rules decide, as the CLI's datetime.fromtimestamp did
  std::time_t t = std::mktime(&tm);
  if (t == static_cast<std::time_t>(-1)) return std::nullopt;
  return Timestamp(std::chrono::seconds(t));
}

// A POSIX time as az prints it (a number, or a string of digits); the year 5000 at most, so the
// Timestamp cannot overflow.
std::optional<Timestamp> posix_seconds(const json& v) {
  int64_t secs = -1;
  if (v.is_number_integer()) secs = v.get<int64_t>();
  if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (std::from_chars(s.data(), s.data() + s.size(), secs).ptr != s.data() + s.size()) secs = -1;
  }
  if (secs < 0 || secs > 100'000'000'000) return std::nullopt;
  return Timestamp(std::chrono::seconds(secs));
}

std::optional<Timestamp> cli_expiry(const json& body) {
  if (auto it = body.find("expires_on"); it != body.end()) {
    if (auto t = posix_seconds(*it)) return t;
  }
  if (auto it = body.find("expiresOn"); it != body.end() && it->is_string()) {
    return parse_local_time(it->get<std::string>());
  }
  return std::nullopt;
}

// az prints warnings before its error; the `ERROR:` line says what went wrong.
std::string_view az_complaint(std::string_view err) {
  size_t at = err.find("ERROR:");
  return at == std::string_view::npos ? err : err.substr(at);
}

class AzureCliCredential final : public BearerCredential {
 public:
  AzureCliCredential(std::string az_path, std::string resource, std::chrono::milliseconds timeout)
      : az_path_(std::move(az_path)), resource_(std::move(resource)), timeout_(timeout) {}

  std::string describe() const override { return fmt::format("az CLI login ({})", az_path_); }

 protected:
  Result<AccessToken> fetch(Timestamp now) override;

 private:
  Error failure(const CapturedOutput& r) const;
  Result<AccessToken> parse(const std::string& out) const;

  std::string az_path_, resource_;
  std::chrono::milliseconds timeout_;
};

Result<AccessToken> AzureCliCredential::fetch(Timestamp /*now*/) {
  CapturedRun run;
  run.argv = {az_path_, "account", "get-access-token", "--resource", resource_, "-o", "json"};
  run.deadline = std::chrono::steady_clock::now() + timeout_;
  auto r = run_captured(run);
  if (!r) {
    return make_error(ErrorKind::Auth, fmt::format("{}: {} (is the Azure CLI installed?)",
                                                   describe(), r.error().message));
  }
  if (r->timed_out || r->exit_status != 0) return failure(*r);
  return parse(r->out);
}

// Names the exit status and az's own complaint (stderr, e.g. "Please run 'az login'"); stdout may
// hold a token, so it never goes into a message.
Error AzureCliCredential::failure(const CapturedOutput& r) const {
  if (r.timed_out) {
    return make_error(ErrorKind::Auth,
                      fmt::format("{}: `az account get-access-token` took longer than {} ms and "
                                  "was killed",
                                  describe(), timeout_.count()));
  }
  std::string why = first_line_for_message(az_complaint(r.err));
  return make_error(ErrorKind::Auth,
                    fmt::format("{}: `az account get-access-token` failed (exit status {}){}{}",
                                describe(), r.exit_status, why.empty() ? "" : ": ", why));
}

Result<AccessToken> AzureCliCredential::parse(const std::string& out) const {
  json body = json::parse(out, nullptr, false);
  auto it = body.find("accessToken");  // end() for anything but an object
  std::optional<Timestamp> expiry = body.is_object() ? cli_expiry(body) : std::nullopt;
  if (it == body.end() || !it->is_string() || it->get_ref<const std::string&>().empty() ||
      !expiry) {
    return make_error(ErrorKind::Parse,
                      fmt::format("{}: `az account get-access-token` printed no accessToken "
                                  "with an expiry",
                                  describe()));
  }
  return AccessToken{it->get<std::string>(), *expiry};
}

}  // namespace

std::unique_ptr<Credential> azure_cli_credential(std::string az_path, std::string resource,
                                                 std::chrono::milliseconds timeout) {
  return std::make_unique<AzureCliCredential>(std::move(az_path), std::move(resource), timeout);
}

}  // namespace trainyard::azure
