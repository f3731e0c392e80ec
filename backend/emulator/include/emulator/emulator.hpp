// `trainyard emulator`: a wire-compatible Azure Batch service on loopback.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

#include "core/result.hpp"

namespace trainyard::emu {

/// How the emulator is started (`trainyard emulator` flags).
struct EmulatorOptions {
  std::string bind = "127.0.0.1";
  int port = 0;  ///< 0: any free port
  std::string account = "emulator";
  std::string region = "local";
  std::string key_base64;  ///< the account key; required
  std::string state_file;  ///< empty: state in memory only
  int64_t seed_tasks = 0;
  std::string faults;  ///< `--faults` spec
  bool tls = false;
  std::string tls_dir;        ///< where the generated CA and server certificate go
  std::string work_dir;       ///< node sandboxes and the engine's runs; empty: a temporary one
  std::string trainyard_exe;  ///< binary that runs `__supervise` for the engine
  int node_step_ms = 400;     ///< time each node allocation/boot phase takes
  int tick_ms = 100;          ///< simulation step
  /// Serves the Entra ID token, IMDS and management-plane endpoints (`--identity`).
  bool identity = false;
  /// The auto-storage account's connection string (`--auto-storage`): resourceFiles'
  /// `autoStorageContainerName` is read from it; empty: such files fail as without one.
  std::string auto_storage;
  /// HTTP worker threads. Each open connection holds one while it is read (an idle keep-alive
  /// connection of an SDK, a slow client), so there are enough for many.
  int threads = 64;
};

/// A running emulator: server threads plus the simulation ticker.
class Emulator {
 public:
  /// Binds, loads `--state`, seeds, and starts serving; errors name the file or port.
  static Result<std::unique_ptr<Emulator>> start(EmulatorOptions options);
  ~Emulator();
  Emulator(const Emulator&) = delete;
  Emulator& operator=(const Emulator&) = delete;

  /// The port bound (useful with port 0).
  int port() const;
  /// `http(s)://host:port`.
  std::string endpoint() const;
  /// Path of the CA certificate clients must trust (with `tls`).
  std::string ca_certificate() const;
  /// The key clients sign with.
  const std::string& key() const;
  /// Stops serving; without `--state` it also ends every task process.
  void stop();

 private:
  struct Impl;
  explicit Emulator(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

/// A new random account key (64 bytes, base64), as the service generates them.
std::string generate_account_key();

/// Whether `host` is "localhost" or an address of this machine's loopback: 127.0.0.0/8, ::1,
/// or ::ffff:127.x.y.z. Parsed as an address: "127.evil.example" is a host name, not loopback.
bool is_loopback_address(const std::string& host);

}  // namespace trainyard::emu
