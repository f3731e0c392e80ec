// `trainyard accounts discover` against the emulator's management plane: the cache it writes,
// `accounts ls` showing what it found, `sync` on a discovered account, and config mistakes.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include <nlohmann/json.hpp>

#include "../azure/emulator_process.hpp"
#include "cli_fixture.hpp"

namespace trainyard::clitest::discover_test {
namespace {

using nlohmann::json;
namespace fs = std::filesystem;

class DiscoverCli : public Cli {
 protected:
  /// config.json with `discovery` pointing every token and management call at the emulator.
  void write_config(json extra = json::object()) {
    json config{{"discovery",
                 {{"auth",
                   {{"type", "servicePrincipal"},
                    {"tenantId", "t1"},
                    {"clientId", "app-1"},
                    {"clientSecretEnv", "EMU_SECRET"},
                    {"authority", emu_.endpoint()}}},
                  {"managementEndpoint", emu_.endpoint()},
                  // The emulator has no subscription list: name the one it answers for.
                  {"subscriptions", {"sub-1"}}}}};
    config.update(extra);
    write_raw_config(config);
  }
  void write_raw_config(const json& config) {
    fs::create_directories(root() + "/xdg-config/trainyard");
    std::ofstream(root() + "/xdg-config/trainyard/config.json") << config.dump(2);
  }
  /// trainyard with `--data-dir` and the client secret in the environment (never on argv).
  Outcome tyd(std::vector<std::string> args) {
    args.insert(args.begin(), {"--data-dir", data()});
    return bare(args, {"EMU_SECRET=" + emu_.key()});
  }
  json ls_accounts() {
    auto r = tyd({"accounts", "ls", "--json"});
    EXPECT_EQ(r.code, 0) << r.err;
    return json::parse(r.out, nullptr, false);
  }
  static json named(const json& list, const std::string& name) {
    for (const auto& a : list)
      if (a.value("name", "") == name) return a;
    return json();
  }

  azuretest::EmulatorProcess emu_{{"--identity"}};  // token endpoint and management plane
};

TEST_F(DiscoverCli, DiscoveredAccountIsCachedListedAndSyncs) {
  write_config();
  auto r = tyd({"accounts", "discover", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  json found = json::parse(r.out, nullptr, false);
  ASSERT_TRUE(found.is_array()) << r.out;
  ASSERT_EQ(found.size(), 1u) << r.out;
  EXPECT_EQ(found[0].value("name", ""), emu_.account());
  EXPECT_EQ(found[0].value("endpoint", ""), emu_.endpoint());
  EXPECT_EQ(found[0].value("subscription", ""), "sub-1");

  const std::string cache = data() + "/discovered-accounts.json";
  struct stat st {};
  ASSERT_EQ(::stat(cache.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
  EXPECT_EQ(read_file(cache).find(emu_.key()), std::string::npos);

  auto account = named(ls_accounts(), emu_.account());
  EXPECT_EQ(account.value("origin", ""), "discovered") << account.dump();
  EXPECT_EQ(account.value("auth", ""), "servicePrincipal") << account.dump();
  EXPECT_EQ(account.value("endpoint", ""), emu_.endpoint());

  auto table = tyd({"accounts", "discover"});
  ASSERT_EQ(table.code, 0) << table.err;
  EXPECT_NE(table.out.find("sub-1"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("cached 1 discovered account(s) in " + cache), std::string::npos)
      << table.out;

  auto sync = tyd({"sync", "--account", emu_.account()});
  ASSERT_EQ(sync.code, 0) << sync.err;
  auto lines = lines_of(sync.out);
  ASSERT_FALSE(lines.empty());
  EXPECT_EQ(lines.back().rfind("synced " + emu_.account() + ":", 0), 0u) << sync.out;
}

TEST_F(DiscoverCli, AConfigAccountWinsANameClashWithANote) {
  write_config({{"accounts",
                 {{{"name", emu_.account()},
                   {"kind", "emulator"},
                   {"endpoint", emu_.endpoint()},
                   {"auth", {{"keyEnv", "EMU_KEY"}}}}}}});
  ASSERT_EQ(tyd({"accounts", "discover"}).code, 0);
  auto r = tyd({"accounts", "ls", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto account = named(json::parse(r.out, nullptr, false), emu_.account());
  EXPECT_EQ(account.value("origin", ""), "config") << r.out;
  EXPECT_NE(r.err.find("from the management plane is ignored"), std::string::npos) << r.err;
}

TEST_F(DiscoverCli, ConfigMistakesAreRefusedWithTheirPlace) {
  write_raw_config({{"discovery", {{"auth", {{"type", "sharedKey"}, {"keyEnv", "K"}}}}}});
  auto r = tyd({"accounts", "discover"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/discovery/auth/type"), std::string::npos) << r.err;

  write_raw_config({{"discovery", {{"managementEndpoint", "http://management.example.com"}}}});
  r = tyd({"accounts", "discover"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("/discovery/managementEndpoint"), std::string::npos) << r.err;

  write_raw_config({{"discovery", {{"enabled", false}}}});
  r = tyd({"accounts", "discover"});
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.err.find("discovery is off"), std::string::npos) << r.err;
}

TEST_F(DiscoverCli, AFailedDiscoveryKeepsTheLastListAndNoSecret) {
  write_config();
  ASSERT_EQ(tyd({"accounts", "discover"}).code, 0);
  // A secret the token endpoint refuses.
  const std::string wrong = "d3Jvbmctc2VjcmV0LXZhbHVl";
  auto r = bare({"--data-dir", data(), "accounts", "discover"}, {"EMU_SECRET=" + wrong});
  EXPECT_EQ(r.code, 1);
  EXPECT_NE(r.err.find("invalid_client"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find(wrong), std::string::npos) << r.err;
  EXPECT_FALSE(named(ls_accounts(), emu_.account()).is_null()) << "the last list stays";
}

}  // namespace
}  // namespace trainyard::clitest::discover_test
