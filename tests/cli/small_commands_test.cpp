// Small commands against `trainyard emulator`: what `ls pools` asks the service, and how many
// connections one command opens (a counting proxy in front of the emulator).
#include <gtest/gtest.h>

#include <sstream>

#include <nlohmann/json.hpp>

#include "batch_cli_fixture.hpp"
#include "counting_proxy.hpp"

namespace trainyard::clitest::small_commands_test {
namespace {

using nlohmann::json;

int port_of(const std::string& endpoint) {
  return std::stoi(endpoint.substr(endpoint.rfind(':') + 1));
}

// The words of the row whose first word is `first`; empty when there is none.
std::vector<std::string> row(const std::string& table, const std::string& first) {
  for (const auto& line : lines_of(table)) {
    std::istringstream in(line);
    std::vector<std::string> w;
    for (std::string s; in >> s;) w.push_back(s);
    if (!w.empty() && w[0] == first) return w;
  }
  return {};
}

class SmallCommands : public BatchCli {
 protected:
  // Requests the emulator served for one path pattern ("GET /pools/{}/nodes").
  int64_t served(const std::string& pattern) {
    return azuretest::served_paths(*client_)
        .value(pattern, json::object())
        .value("requests", int64_t{0});
  }
  // The command with the account's endpoint at `proxy`.
  Outcome through(const CountingProxy& proxy, std::vector<std::string> args) {
    args.insert(args.begin(), {"--data-dir", data()});
    args.insert(args.end(), {"--account", emu_.account()});
    return bare(
        args, {"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=" + proxy.endpoint(),
               "AZURE_BATCH_ACCESS_KEY=" + emu_.key()});
  }
};

TEST_F(SmallCommands, LsPoolsAsksForThePoolsAndNoPoolsNodes) {
  post("/pools", {{"id", "big"},
                  {"vmSize", "standard_d2s_v3"},
                  {"targetDedicatedNodes", 3},
                  {"targetLowPriorityNodes", 2}});
  const auto nodes_before = served("GET /pools/{}/nodes");
  const auto pools_before = served("GET /pools");
  auto r = tyb({"ls", "pools", "--account", emu_.account()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(served("GET /pools/{}/nodes") - nodes_before, 0) << "ls pools listed nodes";
  EXPECT_EQ(served("GET /pools") - pools_before, 1);
  // The pool's own counts fill its row: POOL STATE ALLOCATION DEDICATED SPOT SLOTS/NODE VM SIZE.
  auto big = row(r.out, "big");
  ASSERT_EQ(big.size(), 7u) << r.out;
  EXPECT_TRUE(big[3].ends_with("/3")) << big[3];
  EXPECT_TRUE(big[4].ends_with("/2")) << big[4];
  EXPECT_EQ(big[6], "standard_d2s_v3");
  // ls nodes still lists them.
  r = tyb({"ls", "nodes", "--account", emu_.account()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(served("GET /pools/{}/nodes") - nodes_before, 2) << "one listing per pool (p, big)";
}

TEST_F(SmallCommands, OneConnectionServesAllTheRequestsOfACommand) {
  for (const char* id : {"p2", "p3", "p4"})
    post("/pools", {{"id", id}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", 0}});
  for (const char* id : {"j2", "j3", "j4"})
    post("/jobs", {{"id", id}, {"poolInfo", {{"poolId", "p"}}}});
  CountingProxy proxy(port_of(emu_.endpoint()));
  // Pools, the nodes of each of 4 pools, jobs, the tasks of each of 4 jobs: more requests than
  // a server's default keep-alive allowance (cpp-httplib closes after 5).
  auto r = through(proxy, {"sync"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_GE(served("GET /pools/{}/nodes") + served("GET /jobs/{}/tasks"), 8);
  EXPECT_EQ(proxy.accepted(), 1) << "sync opened more than one connection";
  r = through(proxy, {"ls", "nodes"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(proxy.accepted(), 2) << "ls nodes opened more than one connection";
}

}  // namespace
}  // namespace trainyard::clitest::small_commands_test
