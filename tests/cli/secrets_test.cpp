// The variables config.json names as secret sources reach no local task and no supervisor.
#include "cli_fixture.hpp"

namespace trainyard::clitest {
namespace {

class SecretsCli : public Cli {
 protected:
  void write_config() {
    json accounts = json::array({{{"name", "shared"},
                                  {"endpoint", "https://shared.westeurope.batch.azure.com"},
                                  {"auth", {{"keyEnv", "MY_KEY"}}}},
                                 {{"name", "sp"},
                                  {"endpoint", "https://sp.westeurope.batch.azure.com"},
                                  {"auth",
                                   {{"type", "servicePrincipal"},
                                    {"tenantId", "t"},
                                    {"clientId", "c"},
                                    {"clientSecretEnv", "SP_SECRET"}}}}});
    json discovery{{"auth",
                    {{"type", "servicePrincipal"},
                     {"tenantId", "t"},
                     {"clientId", "c"},
                     {"clientSecretEnv", "DISCOVERY_SECRET"}}}};
    fs::create_directories(root() + "/xdg-config/trainyard");
    std::ofstream(root() + "/xdg-config/trainyard/config.json")
        << json{{"version", 1}, {"accounts", accounts}, {"discovery", discovery}}.dump(2);
  }
};

TEST_F(SecretsCli, ConfiguredSecretVariablesReachNoTaskAndNoSupervisor) {
  write_config();
  set_env("MY_KEY", "s3-shared-key");
  set_env("SP_SECRET", "s3-sp-secret");
  set_env("DISCOVERY_SECRET", "s3-discovery-secret");
  set_env("AZURE_CLIENT_SECRET", "s3-fixed-secret");
  set_env("TY_PLAIN_VAR", "kept");
  // The task prints its environment, then its supervisor's (its parent).
  auto ref = submit({"--id", "peek"}, {"sh", "-c", "env; tr '\\0' '\\n' < /proc/$PPID/environ"});
  ASSERT_EQ(ty({"wait", ref}).code, 0);
  auto logs = ty({"logs", "--raw", ref});
  ASSERT_EQ(logs.code, 0) << logs.err;
  EXPECT_NE(logs.out.find("TY_PLAIN_VAR=kept"), std::string::npos) << logs.out;
  for (const char* name : {"MY_KEY", "SP_SECRET", "DISCOVERY_SECRET", "AZURE_CLIENT_SECRET"})
    EXPECT_EQ(logs.out.find(std::string(name) + "="), std::string::npos) << name;
  EXPECT_EQ(logs.out.find("s3-"), std::string::npos) << logs.out;
}

}  // namespace
}  // namespace trainyard::clitest

namespace trainyard::clitest {
namespace {

// GPU isolation fails closed: with NVML present but failing, a task waits and `ls` says why.
TEST_F(Cli, LsTasksShowsWhyATaskWaitsForNvml) {
  set_env("TRAINYARD_NVML_LIB", FAKE_NVML_FULL);
  set_env("FAKE_NVML_INIT_RC", "999");
  auto ref = submit({"--id", "waits"}, {"true"});
  auto r = ty({"ls", "tasks"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto lines = lines_of(r.out);
  ASSERT_EQ(lines.size(), 2u) << r.out;
  EXPECT_NE(lines[0].find("WAITING"), std::string::npos) << r.out;
  EXPECT_EQ(lines[1].rfind(ref + " ", 0), 0u) << r.out;
  EXPECT_NE(lines[1].find(" active "), std::string::npos) << r.out;
  EXPECT_NE(lines[1].find("NVML cannot be read (NVML cannot be started: nvmlInit_v2: Unknown "
                          "Error (999)); GPU tasks wait for it"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(ty({"stop", ref}).code, 0);
}

}  // namespace
}  // namespace trainyard::clitest
