// `trainyard emulator`: serve a wire-compatible Azure Batch account on loopback.
#include <fcntl.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "core/atomic_file.hpp"
#include "core/text.hpp"
#include "emulator/emulator.hpp"
#include "local/task_environment.hpp"
#include "output.hpp"

extern char** environ;

namespace trainyard {
namespace {

struct EmulatorFlags {
  emu::EmulatorOptions options;
  std::string auto_storage_file;
  std::string key_file;
  std::string key;
  std::string env_file;
  bool allow_remote = false;
};

// The key from --key-file, TRAINYARD_EMULATOR_KEY, --key (tests), or a new one.
Result<std::string> account_key(const EmulatorFlags& f, bool& generated) {
  generated = false;
  if (!f.key_file.empty()) {
    std::ifstream in(f.key_file);
    if (!in)
      return make_error(ErrorKind::Usage, fmt::format("{}: cannot read the key file", f.key_file));
    std::stringstream buf;
    buf << in.rdbuf();
    auto key = std::string(trim_space(buf.str()));
    if (key.empty())
      return make_error(ErrorKind::Usage, fmt::format("{}:1: the key file is empty", f.key_file));
    return key;
  }
  if (const char* env = std::getenv("TRAINYARD_EMULATOR_KEY"); env && *env)
    return std::string(trim_space(env));
  if (!f.key.empty()) return f.key;
  generated = true;
  return emu::generate_account_key();
}

// The auto-storage connection string from --auto-storage-file (its first line), else as given.
Result<void> read_auto_storage(EmulatorFlags& f) {
  if (f.auto_storage_file.empty()) return ok_result();
  std::ifstream in(f.auto_storage_file);
  std::string line;
  if (!in || !std::getline(in, line))
    return make_error(ErrorKind::Usage,
                      fmt::format("{}: cannot read the connection string", f.auto_storage_file));
  f.options.auto_storage = trim_space(line);
  if (f.options.auto_storage.empty())
    return make_error(ErrorKind::Usage,
                      fmt::format("{}:1: the connection string is empty", f.auto_storage_file));
  return ok_result();
}

// The emulator's children (task supervisors, `docker info`) inherit its environment, so the key
// and every other secret variable (the fixed list and those config.json names) leave it once read.
// Their text is overwritten too, names and values: /proc/PID/environ shows the environment as it
// was at exec, not as unsetenv left it. Called before any thread starts (unsetenv is not
// thread-safe).
void drop_secret_variables(const std::vector<std::string>& configured) {
  std::vector<std::pair<std::string, char*>> secrets;  // name, and the entry's own text
  for (char** e = environ; e && *e; ++e) {
    const char* eq = std::strchr(*e, '=');
    if (!eq) continue;
    std::string name(*e, static_cast<size_t>(eq - *e));
    if (is_secret_variable(name, configured)) secrets.emplace_back(std::move(name), *e);
  }
  for (const auto& [name, text] : secrets) {
    ::unsetenv(name.c_str());
    std::memset(text, 0, std::strlen(text));
  }
}

// A value as one shell word: as it is when nothing in it is special, else single-quoted.
std::string shell_word(const std::string& v) {
  const bool plain = !v.empty() && v.find_first_not_of(
                                       "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnop"
                                       "qrstuvwxyz0123456789@%+=:,./_-") == std::string::npos;
  if (plain) return v;
  std::string out = "'";
  for (char c : v) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// What a client needs, as `export` lines for `.`/`source`.
std::string export_lines(const emu::Emulator& emu, const emu::EmulatorOptions& o) {
  std::string out = "export AZURE_BATCH_ENDPOINT=" + shell_word(emu.endpoint()) + "\n";
  out += "export AZURE_BATCH_ACCOUNT=" + shell_word(o.account) + "\n";
  out += "export AZURE_BATCH_ACCESS_KEY=" + shell_word(o.key_base64) + "\n";
  if (o.tls) out += "export REQUESTS_CA_BUNDLE=" + shell_word(emu.ca_certificate()) + "\n";
  return out;
}

// Writes `text` to `path` readable by the owner only from its first byte (it holds the key), so
// a reader sees the old file or all of the new one.
Result<void> write_private_file(const std::string& path, const std::string& text) {
  auto written = write_file_atomic(path, text, 0600);
  if (written) return written;
  return make_error(ErrorKind::Io,
                    fmt::format("cannot write the environment file: {}", written.error().message));
}

int wait_for_signal() {
  sigset_t set;
  sigemptyset(&set);
  sigaddset(&set, SIGINT);
  sigaddset(&set, SIGTERM);
  sigaddset(&set, SIGHUP);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  int sig = 0;
  sigwait(&set, &sig);
  return sig;
}

int emulator_command(EmulatorFlags f) {
  if (!emu::is_loopback_address(f.options.bind) && !f.allow_remote) {
    out::eprint(
        "trainyard: emulator: --bind {} is not a loopback address; add --allow-remote to serve it",
        f.options.bind);
    return kExitUsage;
  }
  bool generated = false;
  auto key = account_key(f, generated);
  if (!key) return report(key.error());
  f.options.key_base64 = *key;
  if (auto ok = read_auto_storage(f); !ok) return report(ok.error());
  auto settings = load_settings(default_config_path());
  if (!settings) return report(settings.error());
  drop_secret_variables(secret_variable_names(*settings));
  char exe[4096];
  ssize_t n = ::readlink("/proc/self/exe", exe, sizeof exe - 1);
  if (n > 0) f.options.trainyard_exe.assign(exe, static_cast<size_t>(n));
  // Signals are taken by sigwait below; block them before any thread starts.
  sigset_t set;
  sigemptyset(&set);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&set, s);
  pthread_sigmask(SIG_BLOCK, &set, nullptr);
  auto emu = emu::Emulator::start(f.options);
  if (!emu) return report(emu.error());
  const std::string exports = export_lines(**emu, f.options);
  if (f.env_file.empty()) {
    out::lines(stdout, std::string_view(exports).substr(0, exports.size() - 1));  // no blank line
  } else if (auto written = write_private_file(f.env_file, exports); !written) {
    (*emu)->stop();
    return report(written.error());
  }
  out::eprint("trainyard emulator: serving account '{}' on {}{}{}{}; Ctrl-C stops it",
              f.options.account, (*emu)->endpoint(), generated ? " with a generated key" : "",
              f.options.state_file.empty() ? " (state in memory)"
                                           : (" (state in " + f.options.state_file + ")").c_str(),
              f.env_file.empty() ? "" : ("; `. " + f.env_file + "` sets the variables").c_str());
  std::fflush(stdout);
  wait_for_signal();
  (*emu)->stop();
  return 0;
}

}  // namespace

void register_emulator(CLI::App& app, CliState& st) {
  auto f = std::make_shared<EmulatorFlags>();
  auto* cmd =
      app.add_subcommand("emulator", "Serve a wire-compatible Azure Batch account on loopback");
  cmd->add_option("--port", f->options.port, "Port (default: a free one)")
      ->check(CLI::Range(0, 65535));
  cmd->add_option("--bind", f->options.bind, "Address to listen on (default 127.0.0.1)");
  cmd->add_flag("--allow-remote", f->allow_remote, "Allow a --bind address that is not loopback");
  cmd->add_option("--account", f->options.account, "Account name (default emulator)");
  auto* key_file =
      cmd->add_option("--key-file", f->key_file, "File holding the base64 account key");
  cmd->add_option("--key", f->key,
                  "Account key on the command line (tests only: argv is visible to others)")
      ->excludes(key_file);
  cmd->add_option("--state", f->options.state_file, "Keep the account in FILE across restarts");
  cmd->add_option("--seed-tasks", f->options.seed_tasks,
                  "Build a deterministic account with N finished tasks")
      ->check(CLI::Range(int64_t{0}, int64_t{10'000'000}));
  cmd->add_option(
      "--faults", f->options.faults,
      "Inject faults: 429=R,503=R,500=R,reset=R,truncate=R,latency=MS,retry-after=S,seed=N");
  cmd->add_option("--env-file", f->env_file,
                  "Write the export lines to FILE (mode 0600) instead of printing them");
  cmd->add_flag("--identity", f->options.identity,
                "Also serve the Entra ID token, IMDS and management-plane endpoints");
  cmd->add_flag("--tls", f->options.tls, "Serve HTTPS with a generated CA (its path is printed)");
  auto* storage_file = cmd->add_option(
      "--auto-storage-file", f->auto_storage_file,
      "The auto-storage account: a file holding its connection string (resourceFiles' "
      "autoStorageContainerName are read from it)");
  cmd->add_option("--auto-storage", f->options.auto_storage,
                  "The auto-storage account's connection string (UseDevelopmentStorage=true for "
                  "Azurite; a key in argv is visible to others: prefer --auto-storage-file)")
      ->excludes(storage_file);
  cmd->add_option("--node-step-ms", f->options.node_step_ms,
                  "Time each node allocation and boot step takes")
      ->check(CLI::Range(0, 600000));
  cmd->callback([&st, f] { st.action = [f] { return emulator_command(*f); }; });
}

}  // namespace trainyard
