// An emulator, an empty store in a temp dir and a client for the emulator's account.
#pragma once

#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "azure/batch_client.hpp"
#include "emulator_client.hpp"
#include "emulator_process.hpp"
#include "store/store.hpp"
#include "sync/batch_sync.hpp"

namespace trainyard::azuretest {

namespace fs = std::filesystem;

/// One test's emulator, store and client (fast retries, so fault tests stay short).
struct SyncFixture {
  explicit SyncFixture(std::vector<std::string> extra = {}) : emu(std::move(extra)) {
    std::string tmpl = (fs::temp_directory_path() / "trainyard-sync-XXXXXX").string();
    dir = ::mkdtemp(tmpl.data());
    auto opened = Store::open(dir + "/cache.db");
    if (!opened) throw std::runtime_error(opened.error().message);
    store = std::move(opened.value());
    client = azuretest::emulator_client(emu, clock, 10);
    scope = SyncScope{emu.account(), AccountKind::Emulator, emu.endpoint()};
  }
  ~SyncFixture() {
    store.reset();
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
  EmulatorProcess emu;
  std::string dir;
  std::unique_ptr<Store> store;
  SystemClock clock;
  std::unique_ptr<azure::BatchClient> client;
  SyncScope scope;
};

}  // namespace trainyard::azuretest
