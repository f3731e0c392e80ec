// `sweep` and `metrics` on an emulator account answer with every task's last lines: the logs the
// cache lacks (a task nobody opened, one read while it ran) are read first, and the command says
// how much it read; offline, it says which answers may stop short.
#include <gtest/gtest.h>

#include <functional>
#include <thread>

#include "batch_cli_fixture.hpp"

namespace trainyard::clitest::batch_metrics_test {
namespace {

using namespace std::chrono_literals;
using nlohmann::json;

class BatchMetrics : public BatchCli {
 protected:
  bool wait_for(const std::function<bool()>& fn) {
    for (auto end = std::chrono::steady_clock::now() + 30s; std::chrono::steady_clock::now() < end;
         std::this_thread::sleep_for(100ms))
      if (fn()) return true;
    return false;
  }
  bool state_is(const std::string& id, TaskState state) {
    auto ts = client_->tasks("j");
    if (!ts) return false;
    for (const auto& t : *ts)
      if (t.id == id) return t.state == state;
    return false;
  }
  json sweep_json(const std::vector<std::string>& extra = {}) {
    std::vector<std::string> args{"sweep", "j", "--account", emu_.account(), "--json"};
    args.insert(args.end(), extra.begin(), extra.end());
    auto r = tyb(args);
    EXPECT_EQ(r.code, 0) << r.err;
    last_err_ = r.err;
    return json::parse(r.out, nullptr, false);
  }
  static json run_of(const json& sweep, const std::string& id) {
    for (const auto& r : sweep.value("runs", json::array()))
      if (r.value("task", "") == id) return r;
    return json();
  }
  std::string last_err_;
};

TEST_F(BatchMetrics, SweepReadsTheLogsOfTasksNobodyOpenedBeforeRanking) {
  task("ok", "sh -c 'echo loss=0.9; echo loss=0.6; echo loss=0.45; echo loss=0.40'");
  task("low", "sh -c 'echo loss=0.8; echo loss=0.5; echo loss=0.2'");
  ASSERT_TRUE(wait_for([&] {
    return state_is("ok", TaskState::Completed) && state_is("low", TaskState::Completed);
  }));
  auto s = sweep_json();
  EXPECT_EQ(s.value("metric", ""), "loss");
  EXPECT_EQ(run_of(s, "ok").value("final", json()), json(0.40));
  EXPECT_EQ(run_of(s, "low").value("final", json()), json(0.2));
  EXPECT_EQ(s.value("best", json()), json("low"));
  // 9 + 9 + 10 + 10 bytes of `ok`'s stdout, 9 * 3 of `low`'s; both stderr files are empty.
  EXPECT_NE(last_err_.find("read 65 B of logs of 2 task(s) of j"), std::string::npos) << last_err_;
  // Read to their end once: the next answer reads nothing and says nothing of it.
  auto again = sweep_json();
  EXPECT_EQ(again.value("best", json()), json("low"));
  EXPECT_EQ(last_err_.find("read "), std::string::npos) << last_err_;
}

TEST_F(BatchMetrics, MetricsOfATaskReadWhileItRanEndAtItsLastLine) {
  task("t", "sh -c 'echo loss=0.9; sleep 3; echo loss=0.5; echo loss=0.25'");
  // Read while it runs, as a log pane left open reads it: one point so far.
  ASSERT_TRUE(wait_for([&] {
    auto r = tyb({"logs", "--account", emu_.account(), "j/t"});
    return r.code == 0 && r.out.find("loss=0.9") != std::string::npos;
  }));
  ASSERT_TRUE(wait_for([&] { return state_is("t", TaskState::Completed); }));
  ASSERT_EQ(tyb({"ls", "tasks", "--account", emu_.account(), "--job", "j"}).code, 0);
  auto offline = tyb({"metrics", "j/t", "--account", emu_.account(), "--offline", "--json"});
  ASSERT_EQ(offline.code, 0) << offline.err;
  EXPECT_NE(offline.err.find("the logs of 1 task(s) are not all in the cache"), std::string::npos)
      << offline.err;
  // One line read: `loss=0.9` alone could still be a parameter, so there is no series yet.
  EXPECT_EQ(json::parse(offline.out, nullptr, false).value("series", json()), json::array())
      << offline.out;
  auto r = tyb({"metrics", "j/t", "--account", emu_.account(), "--json"});
  ASSERT_EQ(r.code, 0) << r.err;
  auto m = json::parse(r.out, nullptr, false);
  json values = json::array();
  for (const auto& series : m.value("series", json::array()))
    if (series.value("name", "") == "loss")
      for (const auto& p : series.value("points", json::array())) values.push_back(p.at("value"));
  EXPECT_EQ(values, json({0.9, 0.5, 0.25})) << r.out;
  // `loss=0.5\nloss=0.25\n`: the 19 bytes written after the first read.
  EXPECT_NE(r.err.find("read 19 B of logs of 1 task(s) of j"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace trainyard::clitest::batch_metrics_test
