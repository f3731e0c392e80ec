// `trainyard emulator`: serve a wire-compatible Azure Batch account on loopback.
#include <signal.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <memory>
#include <sstream>

#include <fmt/format.h>

#include "app/cli.hpp"
#include "app/context.hpp"
#include "commands.hpp"
#include "emulator/emulator.hpp"
#include "output.hpp"

namespace trainyard {
namespace {

struct EmulatorFlags {
  emu::EmulatorOptions options;
  std::string key_file;
  std::string key;
  bool allow_remote = false;
};

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

std::string trim(std::string s) {
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r' || s.back() == ' ')) s.pop_back();
  while (!s.empty() && s.front() == ' ') s.erase(0, 1);
  return s;
}

// The key from --key-file, TRAINYARD_EMULATOR_KEY, --key (tests), or a new one.
Result<std::string> account_key(const EmulatorFlags& f, bool& generated) {
  generated = false;
  if (!f.key_file.empty()) {
    std::ifstream in(f.key_file);
    if (!in)
      return make_error(ErrorKind::Usage, fmt::format("{}: cannot read the key file", f.key_file));
    std::stringstream buf;
    buf << in.rdbuf();
    auto key = trim(buf.str());
    if (key.empty())
      return make_error(ErrorKind::Usage, fmt::format("{}:1: the key file is empty", f.key_file));
    return key;
  }
  if (const char* env = std::getenv("TRAINYARD_EMULATOR_KEY"); env && *env) return trim(env);
  if (!f.key.empty()) return f.key;
  generated = true;
  return emu::generate_account_key();
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
  if (!is_loopback(f.options.bind) && !f.allow_remote) {
    out::eprint(
        "trainyard: emulator: --bind {} is not a loopback address; add --allow-remote to serve it",
        f.options.bind);
    return kExitUsage;
  }
  bool generated = false;
  auto key = account_key(f, generated);
  if (!key) return report(key.error());
  f.options.key_base64 = *key;
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
  out::print("export AZURE_BATCH_ENDPOINT={}", (*emu)->endpoint());
  out::print("export AZURE_BATCH_ACCOUNT={}", f.options.account);
  out::print("export AZURE_BATCH_ACCESS_KEY={}", f.options.key_base64);
  if (f.options.tls) out::print("export REQUESTS_CA_BUNDLE={}", (*emu)->ca_certificate());
  out::eprint("trainyard emulator: serving account '{}' on {}{}{}; Ctrl-C stops it",
              f.options.account, (*emu)->endpoint(), generated ? " with a generated key" : "",
              f.options.state_file.empty() ? " (state in memory)"
                                           : (" (state in " + f.options.state_file + ")").c_str());
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
  cmd->add_flag("--tls", f->options.tls, "Serve HTTPS with a generated CA (its path is printed)");
  cmd->add_option("--node-step-ms", f->options.node_step_ms,
                  "Time each node allocation and boot step takes")
      ->check(CLI::Range(0, 600000));
  cmd->callback([&st, f] { st.action = [f] { return emulator_command(*f); }; });
}

}  // namespace trainyard
