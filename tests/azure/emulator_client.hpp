// A SharedKey client for a test's emulator, with retries fast enough for fault tests.
#pragma once

#include <gtest/gtest.h>

#include <chrono>
#include <memory>

#include <nlohmann/json.hpp>

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

/// What the emulator has served, by path pattern ("GET /pools/{}/nodes" -> {"requests", "bytes",
/// "statuses"}); an empty object before its first request is counted.
inline nlohmann::json served_paths(azure::BatchClient& client) {
  auto r = client.call("GET", "/__trainyard/counters");
  if (!r) {
    ADD_FAILURE() << "read the emulator's counters: " << r.error().message;
    return nlohmann::json::object();
  }
  auto counters = nlohmann::json::parse(r->body, nullptr, false);
  if (!counters.is_object()) return nlohmann::json::object();
  return counters.value("paths", nlohmann::json::object());
}

}  // namespace trainyard::azuretest
