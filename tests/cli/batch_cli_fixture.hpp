// CLI tests on an emulator account: the fixture.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "../azure/emulator_client.hpp"
#include "../azure/emulator_process.hpp"
#include "azure/batch_client.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest {

/// A Cli home, an emulator the `az batch` variables point at with pool `p` and job `j` on it,
/// and a client to fill and inspect it.
class BatchCli : public Cli {
 protected:
  BatchCli() {
    client_ = azuretest::emulator_client(emu_, clock_);
    post("/pools", {{"id", "p"}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", 1}});
    post("/jobs", {{"id", "j"}, {"poolInfo", {{"poolId", "p"}}}});
  }
  Outcome tyb(std::vector<std::string> args) {
    args.insert(args.begin(), {"--data-dir", data()});
    return bare(args,
                {"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=" + emu_.endpoint(),
                 "AZURE_BATCH_ACCESS_KEY=" + emu_.key()});
  }
  void post(const std::string& path, const nlohmann::json& body) {
    auto r = client_->call("POST", path, {}, body.dump(), {}, false);
    ASSERT_TRUE(r.ok()) << path << ": " << r.error().message;
  }
  void task(const std::string& id, const std::string& command) {
    ASSERT_TRUE(client_->add_task("j", {{"id", id}, {"commandLine", command}}).ok());
  }

  azuretest::EmulatorProcess emu_;
  SystemClock clock_;
  std::unique_ptr<azure::BatchClient> client_;
};

}  // namespace trainyard::clitest
