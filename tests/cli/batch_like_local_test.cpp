// A Batch (emulator) account used from the CLI as the local one is: a wrong key is an error
// rather than an empty table, `ls nodes` without `--pool` lists every pool's nodes, and a job
// submitted from the CLI shows its tasks' counts at once.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "batch_cli_fixture.hpp"

namespace trainyard::clitest::batch_like_local_test {
namespace {

using nlohmann::json;
using namespace std::chrono_literals;
using BatchLikeLocal = BatchCli;

// A key of the right shape that is not the account's.
const std::string kWrongKey = "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXktd3Jvbmc=";

bool has(const std::string& text, const std::string& part) {
  return text.find(part) != std::string::npos;
}

// The whitespace-separated cells of `line`.
std::vector<std::string> cells_of(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string c; in >> c;) out.push_back(c);
  return out;
}

TEST_F(BatchLikeLocal, AWrongKeyFailsLsPoolsWithOneLineNamingTheCode) {
  auto r = bare({"--data-dir", data(), "ls", "pools", "--account", emu_.account()},
                {"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=" + emu_.endpoint(),
                 "AZURE_BATCH_ACCESS_KEY=" + kWrongKey});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  EXPECT_EQ(r.out, "");  // no table, not even its header
  ASSERT_EQ(lines_of(r.err).size(), 1u) << r.err;
  EXPECT_TRUE(has(r.err, "AuthenticationFailed")) << r.err;
  EXPECT_TRUE(has(r.err, "HTTP 403")) << r.err;
  EXPECT_FALSE(has(r.err, "string to sign")) << r.err;
}

TEST_F(BatchLikeLocal, AWrongKeyFailsAccountsTestWithOneLineAndNoStringToSign) {
  auto r = bare({"--data-dir", data(), "accounts", "test", emu_.account()},
                {"AZURE_BATCH_ACCOUNT=" + emu_.account(), "AZURE_BATCH_ENDPOINT=" + emu_.endpoint(),
                 "AZURE_BATCH_ACCESS_KEY=" + kWrongKey});
  EXPECT_EQ(r.code, 1) << r.out << r.err;
  auto lines = lines_of(r.out + r.err);
  ASSERT_EQ(lines.size(), 1u) << r.out << r.err;
  EXPECT_TRUE(has(lines[0], "FAIL " + emu_.account() + ": AuthenticationFailed")) << lines[0];
  EXPECT_FALSE(has(lines[0], "string to sign")) << lines[0];
}

TEST_F(BatchLikeLocal, LsNodesWithoutAPoolListsTheNodesOfEveryPool) {
  post("/pools", {{"id", "q"}, {"vmSize", "standard_d2s_v3"}, {"targetDedicatedNodes", 2}});
  auto nodes_of = [&](const std::string& pool) {
    auto nodes = client_->call("GET", "/pools/" + pool + "/nodes");
    return nodes ? json::parse(nodes->body)["value"].size() : 0u;
  };
  auto deadline = std::chrono::steady_clock::now() + 30s;
  while ((nodes_of("p") != 1 || nodes_of("q") != 2) && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(100ms);
  ASSERT_EQ(nodes_of("p"), 1u);
  ASSERT_EQ(nodes_of("q"), 2u);
  auto r = tyb({"ls", "nodes", "--account", emu_.account()});
  ASSERT_EQ(r.code, 0) << r.err;
  std::map<std::string, int> per_pool;
  auto lines = lines_of(r.out);
  ASSERT_FALSE(lines.empty()) << r.out;
  for (size_t i = 1; i < lines.size(); ++i) ++per_pool[cells_of(lines[i]).at(1)];
  EXPECT_EQ(per_pool, (std::map<std::string, int>{{"p", 1}, {"q", 2}})) << r.out;
}

TEST_F(BatchLikeLocal, AJobSubmittedFromTheCliShowsItsTaskCountsAtOnce) {
  json spec{{"job", {{"id", "sweep"}, {"poolInfo", {{"poolId", "p"}}}}},
            {"tasks",
             {{{"id", "a"}, {"commandLine", "sleep 30"}},
              {{"id", "b"}, {"commandLine", "sleep 30"}},
              {{"id", "c"}, {"commandLine", "sleep 30"}}}}};
  std::string path = root() + "/spec.json";
  std::ofstream(path) << spec.dump();
  auto submitted = tyb({"submit", path, "--account", emu_.account()});
  ASSERT_EQ(submitted.code, 0) << submitted.err;
  // The cache as the submit left it: no refresh in between.
  auto r = tyb({"ls", "jobs", "--account", emu_.account(), "--offline"});
  ASSERT_EQ(r.code, 0) << r.err;
  int tasks = -1;
  for (const auto& line : lines_of(r.out)) {
    auto c = cells_of(line);  // JOB STATE POOL ACTIVE RUNNING DONE FAILED CREATED
    if (c.size() >= 7 && c[0] == "sweep")
      tasks = std::stoi(c[3]) + std::stoi(c[4]) + std::stoi(c[5]);
  }
  EXPECT_EQ(tasks, 3) << r.out;
}

}  // namespace
}  // namespace trainyard::clitest::batch_like_local_test
