// A SharedKey client for a test's emulator, with retries fast enough for fault tests.
#pragma once

#include <chrono>
#include <memory>

#include "azure/batch_client.hpp"
#include "emulator_process.hpp"

namespace trainyard::azuretest {

/// A client of `emu`'s account; retries start at 10 ms and stop growing at 100 ms.
inline std::unique_ptr<azure::BatchClient> emulator_client(const EmulatorProcess& emu,
                                                           const Clock& clock,
                                                           int max_retries = 4) {
  azure::BatchClientOptions o;
  o.account = emu.account();
  o.endpoint = emu.endpoint();
  o.retry.base = std::chrono::milliseconds(10);
  o.retry.cap = std::chrono::milliseconds(100);
  o.retry.max_retries = max_retries;
  return std::make_unique<azure::BatchClient>(
      o, std::make_shared<azure::HttpClient>(),
      azure::shared_key_credential(emu.account(), emu.key()), clock);
}

}  // namespace trainyard::azuretest
