// `trainyard accounts ls|test|add|rm`: the Batch accounts trainyard knows, checked and edited.
// A secret never comes from argv: keys come from an environment variable, a command, or a prompt.
#include <sys/stat.h>
#include <termios.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <memory>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "account_lookup.hpp"
#include "app/cli.hpp"
#include "app/context.hpp"
#include "azure/batch_client.hpp"
#include "cmd_discover.hpp"
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

using nlohmann::json;

const char* auth_name(azure::AuthKind k) {
  switch (k) {
    case azure::AuthKind::SharedKey:
      return "sharedKey";
    case azure::AuthKind::ServicePrincipal:
      return "servicePrincipal";
    case azure::AuthKind::ManagedIdentity:
      return "managedIdentity";
    case azure::AuthKind::AzureCli:
      return "azureCli";
  }
  return "?";
}

Result<std::vector<azure::AccountConfig>> known_accounts(const std::string& data_dir_flag,
                                                         std::vector<std::string>& notes) {
  auto settings = load_settings(default_config_path());
  if (!settings) return settings.error();
  settings->data_dir = resolve_data_dir(data_dir_flag);  // where discovered accounts are cached
  return trainyard::known_accounts(*settings, notes);
}

std::string origin_name(azure::AccountOrigin o) {
  return o == azure::AccountOrigin::Config        ? "config"
         : o == azure::AccountOrigin::Environment ? "environment"
                                                  : "discovered";
}

int accounts_ls(const std::string& data_dir_flag, bool as_json) {
  std::vector<std::string> notes;
  auto accounts = known_accounts(data_dir_flag, notes);
  if (!accounts) return report(accounts.error());
  for (const auto& n : notes) out::eprint("trainyard: {}", n);
  json listing = json::array({{{"name", "local"},
                               {"kind", "local"},
                               {"endpoint", ""},
                               {"auth", ""},
                               {"origin", "built-in"},
                               {"readonly", false}}});
  for (const auto& a : *accounts) {
    listing.push_back({{"name", a.name},
                       {"kind", a.emulator ? "emulator" : "batch"},
                       {"endpoint", a.endpoint},
                       {"auth", auth_name(a.auth.kind)},
                       {"origin", origin_name(a.origin)},
                       {"readonly", a.readonly}});
  }
  if (as_json) {
    out::json(listing);
    return kExitOk;
  }
  out::print("{:<20} {:<9} {:<16} {:<12} {:<8} {}", "NAME", "KIND", "AUTH", "ORIGIN", "READONLY",
             "ENDPOINT");
  for (const auto& a : listing) {
    out::print("{:<20} {:<9} {:<16} {:<12} {:<8} {}", a["name"].get<std::string>(),
               a["kind"].get<std::string>(), a["auth"].get<std::string>(),
               a["origin"].get<std::string>(), a["readonly"].get<bool>() ? "yes" : "no",
               a["endpoint"].get<std::string>());
  }
  return kExitOk;
}

int accounts_test(const std::string& data_dir_flag, const std::string& name) {
  std::vector<std::string> notes;
  auto accounts = known_accounts(data_dir_flag, notes);
  if (!accounts) return report(accounts.error());
  int failures = 0, tested = 0;
  for (const auto& a : *accounts) {
    if (!name.empty() && a.name != name) continue;
    ++tested;
    SystemClock clock;
    auto client = open_batch_client(a, clock);
    if (!client) {
      out::print("FAIL {}: {}", a.name, client.error().message);
      ++failures;
      continue;
    }
    const auto t0 = std::chrono::steady_clock::now();
    auto r = (*client)->call("GET", "/pools", {{"maxresults", "1"}, {"$select", "id"}});
    const auto ms =
        std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - t0)
            .count();
    if (r) {
      out::print("ok   {}: {} answered in {} ms ({})", a.name, a.endpoint,
                 static_cast<long long>(ms), auth_name(a.auth.kind));
    } else {
      out::print("FAIL {}: {}", a.name, r.error().message);
      ++failures;
    }
  }
  if (!name.empty() && tested == 0) {
    return report(make_error(
        ErrorKind::Usage, fmt::format("no account named '{}' (see trainyard accounts ls)", name)));
  }
  return failures ? kExitFailure : kExitOk;
}

struct AddFlags {
  std::string name, endpoint, auth = "sharedKey", key_env, key_command, tenant, client_id,
                              secret_env, secret_command;
  std::string authority, imds, cacert;
  bool prompt_key = false, readonly = false, emulator = false;
};

// Reads a line from the terminal with echo off (the key never reaches argv or the screen).
Result<std::string> prompt_secret(const std::string& prompt) {
  out::text(stderr, prompt);
  termios old{};
  bool tty = ::tcgetattr(STDIN_FILENO, &old) == 0;
  if (tty) {
    termios quiet = old;
    quiet.c_lflag &= ~static_cast<tcflag_t>(ECHO);
    ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &quiet);
  }
  std::string line;
  std::getline(std::cin, line);
  if (tty) ::tcsetattr(STDIN_FILENO, TCSAFLUSH, &old);
  out::line(stderr, "");
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  if (line.empty()) return make_error(ErrorKind::Usage, "no key entered");
  return line;
}

Result<json> read_config_json(const std::string& path) {
  std::ifstream in(path);
  if (!in) return json::object();
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  if (auto checked = parse_settings(text, path); !checked) return checked.error();
  return json::parse(text);
}

Result<void> write_config_json(const std::string& path, const json& doc) {
  // Validate exactly what will be written, so a bad edit never reaches the file.
  if (auto checked = parse_settings(doc.dump(), path); !checked) return checked.error();
  auto dir = path.substr(0, path.rfind('/'));
  if (auto ok = make_directories(dir); !ok) return ok;
  return write_file_atomic(path, doc.dump(2) + "\n", 0600);
}

json account_json(const AddFlags& f, const std::string& inline_key) {
  json auth{{"type", f.auth}};
  auto put = [&](const char* k, const std::string& v) {
    if (!v.empty()) auth[k] = v;
  };
  put("key", inline_key);
  put("keyEnv", f.key_env);
  put("keyCommand", f.key_command);
  put("tenantId", f.tenant);
  put("clientId", f.client_id);
  put("clientSecretEnv", f.secret_env);
  put("clientSecretCommand", f.secret_command);
  put("authority", f.authority);
  put("imdsEndpoint", f.imds);
  json a{{"name", f.name},
         {"kind", f.emulator ? "emulator" : "batch"},
         {"endpoint", f.endpoint},
         {"auth", auth}};
  if (f.readonly) a["readonly"] = true;
  if (!f.cacert.empty()) a["cacert"] = f.cacert;
  return a;
}

int accounts_add(const AddFlags& f) {
  const auto path = default_config_path();
  auto doc = read_config_json(path);
  if (!doc) return report(doc.error());
  std::string key;
  if (f.prompt_key) {
    auto k = prompt_secret(fmt::format("Account key for {}: ", f.name));
    if (!k) return report(k.error());
    key = *k;
  }
  if (!(*doc).contains("accounts")) (*doc)["accounts"] = json::array();
  for (const auto& a : (*doc)["accounts"]) {
    if (a.value("name", "") == f.name) {
      return report(make_error(
          ErrorKind::Usage, fmt::format("{}: account '{}' exists; remove it first", path, f.name)));
    }
  }
  (*doc)["accounts"].push_back(account_json(f, key));
  if (auto ok = write_config_json(path, *doc); !ok) return report(ok.error());
  out::print("added account {} to {}", f.name, path);
  return kExitOk;
}

int accounts_rm(const std::string& name) {
  const auto path = default_config_path();
  auto doc = read_config_json(path);
  if (!doc) return report(doc.error());
  auto& arr = (*doc)["accounts"];
  const auto before = arr.is_array() ? arr.size() : 0;
  if (arr.is_array()) {
    arr.erase(std::remove_if(arr.begin(), arr.end(),
                             [&](const json& a) { return a.value("name", "") == name; }),
              arr.end());
  }
  if (!arr.is_array() || arr.size() == before) {
    return report(
        make_error(ErrorKind::Usage, fmt::format("{}: no account named '{}'", path, name)));
  }
  if (auto ok = write_config_json(path, *doc); !ok) return report(ok.error());
  out::print("removed account {} from {}", name, path);
  return kExitOk;
}

void register_add(CLI::App& accounts, CliState& st) {
  auto f = std::make_shared<AddFlags>();
  auto* add =
      accounts.add_subcommand("add", "Add a Batch account to config.json (secrets never on argv)");
  add->add_option("name", f->name, "Account name")->required();
  add->add_option("--endpoint", f->endpoint, "https://ACCOUNT.REGION.batch.azure.com")->required();
  add->add_option("--auth", f->auth, "sharedKey, servicePrincipal, managedIdentity or azureCli")
      ->check(CLI::IsMember({"sharedKey", "servicePrincipal", "managedIdentity", "azureCli"}));
  add->add_option("--key-env", f->key_env, "Environment variable holding the key");
  add->add_option("--key-command", f->key_command, "Command printing the key (a password manager)");
  add->add_flag("--prompt-key", f->prompt_key,
                "Ask for the key (stored in config.json, which becomes mode 0600)");
  add->add_option("--tenant", f->tenant, "Entra ID tenant (servicePrincipal)");
  add->add_option("--client-id", f->client_id, "Application (client) id");
  add->add_option("--client-secret-env", f->secret_env,
                  "Environment variable holding the client secret");
  add->add_option("--client-secret-command", f->secret_command,
                  "Command printing the client secret");
  add->add_option("--authority", f->authority,
                  "Token endpoint host (default login.microsoftonline.com)");
  add->add_option("--imds-endpoint", f->imds, "Managed identity endpoint");
  add->add_option("--cacert", f->cacert, "Extra CA bundle for this endpoint");
  add->add_flag("--readonly", f->readonly, "Refuse every change to this account");
  add->add_flag("--emulator", f->emulator, "Label the account as a trainyard emulator");
  add->callback([&st, f] { st.action = [f] { return accounts_add(*f); }; });
}

}  // namespace

void register_accounts(CLI::App& app, CliState& st) {
  auto* accounts = app.add_subcommand("accounts", "Batch accounts: ls, test, add, rm, discover");
  accounts->require_subcommand(1);
  auto as_json = std::make_shared<bool>(false);
  auto* ls = accounts->add_subcommand(
      "ls", "List the accounts (config, environment, discovered, built-in local)");
  ls->add_flag("--json", *as_json, "JSON output");
  ls->callback([&st, as_json] {
    st.action = [&st, as_json] { return accounts_ls(st.data_dir, *as_json); };
  });
  auto name = std::make_shared<std::string>();
  auto* test =
      accounts->add_subcommand("test", "Authenticate to each account (or one) and list one pool");
  test->add_option("name", *name, "Only this account");
  test->callback(
      [&st, name] { st.action = [&st, name] { return accounts_test(st.data_dir, *name); }; });
  register_add(*accounts, st);
  register_discover(*accounts, st);
  auto rm_name = std::make_shared<std::string>();
  auto* rm = accounts->add_subcommand("rm", "Remove an account from config.json");
  rm->add_option("name", *rm_name, "Account name")->required();
  rm->callback([&st, rm_name] { st.action = [rm_name] { return accounts_rm(*rm_name); }; });
}

}  // namespace trainyard
