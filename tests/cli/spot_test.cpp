// Spot nodes, preemptions and a task's files as `ls` shows them, against `trainyard emulator`.
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <sstream>
#include <thread>

#include <nlohmann/json.hpp>

#include "batch_cli_fixture.hpp"

namespace trainyard::clitest::spot_test {
namespace {

using nlohmann::json;

// Whitespace-separated words of a line (the tables below have no spaces inside the cells that
// come before the ones looked at).
std::vector<std::string> words(const std::string& line) {
  std::istringstream in(line);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// The cell of column `column` in the row whose first cell is `first`; "?" when absent.
std::string cell(const std::string& table, const std::string& first, const std::string& column) {
  auto rows = lines_of(table);
  if (rows.empty()) return "?";
  auto header = words(rows[0]);
  auto at = std::find(header.begin(), header.end(), column);
  if (at == header.end()) return "?";
  auto i = static_cast<size_t>(at - header.begin());
  for (const auto& r : rows) {
    auto w = words(r);
    if (!w.empty() && w[0] == first) return i < w.size() ? w[i] : "?";
  }
  return "?";
}

class Spot : public BatchCli {
 protected:
  json get(const std::string& path) {
    auto r = client_->call("GET", path);
    EXPECT_TRUE(r.ok()) << path << ": " << (r.ok() ? "" : r.error().message);
    return r.ok() ? json::parse(r->body) : json();
  }
  // Polls the service until `done` holds for GET `path` (10 s at most).
  template <typename Pred>
  json wait_for(const std::string& path, Pred done) {
    json last;
    for (int i = 0; i < 100; ++i, std::this_thread::sleep_for(100ms))
      if (done(last = get(path))) return last;
    ADD_FAILURE() << "timed out waiting on " << path << ": " << last.dump();
    return last;
  }
  void spot_pool() {
    post("/pools", {{"id", "spot"},
                    {"vmSize", "standard_nc6s_v3"},
                    {"targetDedicatedNodes", 0},
                    {"targetLowPriorityNodes", 1}});
    wait_for("/pools/spot", [](const json& p) {
      return p.value("currentLowPriorityNodes", 0) == 1 &&
             p.value("allocationState", "") == "steady";
    });
    wait_for("/pools/p", [](const json& p) { return p.value("currentDedicatedNodes", 0) == 1; });
  }
  std::string account() const { return emu_.account(); }
};

TEST_F(Spot, LsPoolsShowsDedicatedAndSpotCurrentOverTarget) {
  spot_pool();
  auto r = tyb({"ls", "pools", "--account", account()});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(cell(r.out, "spot", "DEDICATED"), "0/0") << r.out;
  EXPECT_EQ(cell(r.out, "spot", "SPOT"), "1/1") << r.out;
  EXPECT_EQ(cell(r.out, "p", "DEDICATED"), "1/1") << r.out;
  EXPECT_EQ(cell(r.out, "p", "SPOT"), "0/0") << r.out;
  auto j = tyb({"ls", "pools", "--account", account(), "--json", "--offline"});
  ASSERT_EQ(j.code, 0) << j.err;
  for (const auto& p : json::parse(j.out)) {
    if (p["id"] != "spot") continue;
    EXPECT_EQ(p["currentLowPriorityNodes"], 1);
    EXPECT_EQ(p["targetLowPriorityNodes"], 1);
    EXPECT_EQ(p["currentDedicatedNodes"], 0);
  }
}

TEST_F(Spot, LsNodesSaysWhichNodesAreSpot) {
  spot_pool();
  auto spot = tyb({"ls", "nodes", "--account", account(), "--pool", "spot"});
  ASSERT_EQ(spot.code, 0) << spot.err;
  auto rows = lines_of(spot.out);
  ASSERT_EQ(rows.size(), 2u) << spot.out;
  auto node = words(rows[1])[0];
  EXPECT_EQ(cell(spot.out, node, "KIND"), "spot") << spot.out;
  auto dedicated = tyb({"ls", "nodes", "--account", account(), "--pool", "p"});
  ASSERT_EQ(lines_of(dedicated.out).size(), 2u) << dedicated.out;
  EXPECT_EQ(cell(dedicated.out, words(lines_of(dedicated.out)[1])[0], "KIND"), "dedicated")
      << dedicated.out;
  auto j = tyb({"ls", "nodes", "--account", account(), "--pool", "spot", "--json", "--offline"});
  ASSERT_EQ(j.code, 0) << j.err;
  EXPECT_EQ(json::parse(j.out).at(0)["isDedicated"], false) << j.out;
}

TEST_F(Spot, LsTasksCountsARequeueAfterPreemption) {
  task("long", "/bin/sh -c 'sleep 60'");
  auto running = wait_for("/jobs/j/tasks/long", [](const json& t) {
    return t.value("state", "") == "running" && t.contains("nodeInfo");
  });
  std::string node = running["nodeInfo"].value("nodeId", "");
  post("/__trainyard/preempt", {{"poolId", "p"}, {"nodeId", node}});
  wait_for("/jobs/j/tasks/long",
           [](const json& t) { return t["executionInfo"].value("requeueCount", 0) == 1; });
  auto r = tyb({"ls", "tasks", "--account", account(), "--job", "j"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(cell(r.out, "j/long", "RETRIES"), "0") << r.out;
  EXPECT_EQ(cell(r.out, "j/long", "REQUEUES"), "1") << r.out;
  auto j = tyb({"ls", "tasks", "--account", account(), "--job", "j", "--json", "--offline"});
  EXPECT_EQ(json::parse(j.out).at(0)["executionInfo"]["requeueCount"], 1) << j.out;
}

TEST_F(Spot, LsTasksJsonKeepsTheFilesWithoutSignatures) {
  json t{{"id", "files"},
         {"commandLine", "/bin/true"},
         {"resourceFiles",
          {{{"httpUrl",
             "https://acct.blob.core.windows.net/data/train.csv?sv=2022-11-02&sig=READSECRET"},
            {"filePath", "train.csv"}}}},
         {"outputFiles",
          {{{"filePattern", "*.pt"},
            {"destination",
             {{"container",
               {{"containerUrl", "https://acct.blob.core.windows.net/out?sp=cw&sig=WRITESECRET"},
                {"path", "run-1"}}}}},
            {"uploadOptions", {{"uploadCondition", "tasksuccess"}}}}}},
         {"environmentSettings", {{{"name", "EPOCHS"}, {"value", "3"}}}},
         {"constraints", {{"maxWallClockTime", "PT1H"}, {"maxTaskRetryCount", 2}}}};
  ASSERT_TRUE(client_->add_task("j", t).ok());
  auto r = tyb({"ls", "tasks", "--account", account(), "--job", "j", "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  EXPECT_EQ(r.out.find("SECRET"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("sig="), std::string::npos) << r.out;
  auto got = json::parse(r.out).at(0);
  json out_file{
      {"filePattern", "*.pt"},
      {"destination",
       {{"container",
         {{"containerUrl", "https://acct.blob.core.windows.net/out"}, {"path", "run-1"}}}}},
      {"uploadOptions", {{"uploadCondition", "tasksuccess"}}}};
  EXPECT_EQ(got["outputFiles"], json::array({out_file})) << got.dump(2);
  EXPECT_EQ(got["resourceFiles"],
            json::array({{{"httpUrl", "https://acct.blob.core.windows.net/data/train.csv"},
                          {"filePath", "train.csv"}}}))
      << got.dump(2);
  EXPECT_EQ(got["environmentSettings"], json::array({{{"name", "EPOCHS"}, {"value", "3"}}}));
  EXPECT_EQ(got["constraints"]["maxWallClockTime"], "PT1H");
  EXPECT_EQ(got["constraints"]["maxTaskRetryCount"], 2);
  // Nothing of the signatures reached the cache either.
  for (const char* file : {"/cache.db", "/cache.db-wal"}) {
    std::ifstream db(data() + file, std::ios::binary);
    std::string bytes((std::istreambuf_iterator<char>(db)), std::istreambuf_iterator<char>());
    EXPECT_EQ(bytes.find("SECRET"), std::string::npos) << file;
  }
}

}  // namespace
}  // namespace trainyard::clitest::spot_test
