// The TUI's Batch actions against `trainyard emulator`: a key opens a form or a confirmation,
// the change reaches the service on the account's worker and its outcome the cache; read-only
// accounts and the local account refuse.
#include <gtest/gtest.h>
#include <stdlib.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <thread>

#include "azure/batch_actions.hpp"
#include "statement_counter.hpp"
#include "tui_batch_fixture.hpp"

namespace trainyard::tui_batch_test {
namespace {

using namespace std::chrono_literals;
using apptest::TuiBatch;

TEST_F(TuiBatch, ResizeFromThePoolsPaneReachesTheServiceAndTheCache) {
  open_batch("pools");
  ASSERT_NE(screen().find("seed-cpu"), std::string::npos) << screen();
  keys("j");  // seed-cpu is the first row; seed-gpu the second
  keys("z");
  ASSERT_NE(screen().find("Resize pool seed-gpu"), std::string::npos) << screen();
  type("5");
  keys("Enter");
  EXPECT_TRUE(eventually([&] { return target_dedicated("seed-gpu") == 5; }));
  EXPECT_TRUE(eventually([&] { return cached_target("seed-gpu") == 5; })) << screen();
}

// An endpoint that stops answering (kill -STOP): once a request waits poll.noAnswerSeconds, the
// status line and the account's Accounts row say so; R says it is refreshing and that no answer
// came, and once the endpoint answers again, that it refreshed.
TEST_F(TuiBatch, AnEndpointThatStopsAnsweringIsCalledStale) {
  fixture_.ctx().settings.poll.no_answer_seconds = 1;
  open_batch("jobs");
  go_live();
  const std::string no_answer = "no answer from " + emu_.endpoint() + " for";
  emu_.pause();
  ASSERT_TRUE(eventually([&] { return pumped().find(no_answer) != std::string::npos; }))
      << screen();
  EXPECT_NE(line_with("(stale)"), "") << screen();
  keys("R");
  EXPECT_NE(line_with("refreshing"), "") << screen();
  ASSERT_TRUE(eventually([&] {
    return !pumped().empty() && line_with("refreshing…: " + no_answer) != "";
  })) << screen();
  keys("Escape");  // the Accounts pane
  ASSERT_TRUE(eventually([&] {
    pumped();
    return line_with("no answer fr").find("│" + emu_.account() + " ") != std::string::npos;
  })) << screen();
  emu_.resume();
  keys("/");
  type(emu_.account());
  keys("Enter Enter R");  // the emulator's jobs, refreshed
  EXPECT_TRUE(eventually([&] { return !pumped().empty() && line_with("refreshed") != ""; }))
      << screen();
}

// An action sent to an endpoint that stopped answering says so while it waits, and its outcome
// comes once the endpoint answers again.
TEST_F(TuiBatch, AnActionStuckOnAStoppedEndpointSaysSo) {
  fixture_.ctx().settings.poll.no_answer_seconds = 1;
  open_batch("pools");
  emu_.pause();
  keys("j z");  // resize seed-gpu: a change sent to the account's worker
  type("5");
  tui_->handle_key(*parse_key_name("Enter"));  // not keys(): it would wait for the worker
  tui_->draw();
  ASSERT_TRUE(eventually([&] {
    tui_->refresh();
    return pumped().find("no answer from " + emu_.endpoint()) != std::string::npos;
  })) << screen();
  emu_.resume();  // the request in flight is answered: the action's outcome takes the line
  EXPECT_TRUE(eventually([&] {
    tui_->refresh();
    pumped();
    return line_with("no answer from") == "";
  })) << screen();
}

TEST_F(TuiBatch, DeletingAPoolNeedsItsIdTyped) {
  open_batch("pools");
  keys("D");
  type("seed");
  keys("Enter");
  EXPECT_NE(screen().find("type the pool id exactly"), std::string::npos) << screen();
  keys("Escape");
  std::this_thread::sleep_for(300ms);
  EXPECT_EQ(target_dedicated("seed-cpu"), 2);  // still there
  keys("D");
  type("seed-cpu");
  keys("Enter");
  EXPECT_TRUE(eventually([&] { return target_dedicated("seed-cpu") == -1; }));
}

TEST_F(TuiBatch, EnterOnNoLeavesTheJobRunning) {
  open_batch("jobs");
  keys("t Enter");
  std::this_thread::sleep_for(500ms);
  auto c = open_client();
  auto job = azure::get_job(*c, "seed-sweep");
  ASSERT_TRUE(job.ok());
  EXPECT_EQ(job->state, JobState::Active);
  keys("t y");
  EXPECT_TRUE(eventually([&] {
    auto j = azure::get_job(*c, "seed-sweep");
    return j && j->state != JobState::Active;
  }));
}

TEST_F(TuiBatch, ReadOnlyRefusesBeforeAnyFormOpens) {
  open_batch("pools", true);
  keys("z");
  EXPECT_EQ(screen().find("Resize pool"), std::string::npos);
  EXPECT_NE(screen().find("read-only"), std::string::npos) << screen();
}

TEST_F(TuiBatch, LocalAccountSaysTheKeyIsForBatch) {
  open(apptest::kNormal, "pools");
  keys("z");
  EXPECT_NE(screen().find("acts on Batch accounts"), std::string::npos) << screen();
}

TEST_F(TuiBatch, SubmitOnTheBatchAccountAddsTheJobsTasksAndCountsThem) {
  nlohmann::json spec{{"job", {{"id", "tui-sweep"}, {"poolInfo", {{"poolId", "seed-cpu"}}}}},
                      {"tasks",
                       {{{"id", "a"}, {"commandLine", "sleep 60"}},
                        {{"id", "b"}, {"commandLine", "sleep 60"}},
                        {{"id", "c"}, {"commandLine", "sleep 60"}}}}};
  const std::string path = fixture_.dir() + "/tui-spec.json";
  std::ofstream(path) << spec.dump();
  open_batch("jobs");
  keys(":");
  type("submit");
  keys("Enter C-u");
  type(path);
  keys("Enter");
  ASSERT_NE(screen().find("tui-sweep: 3 task(s)"), std::string::npos) << screen();
  ASSERT_NE(screen().find("Submit to"), std::string::npos) << screen();
  keys("y");
  auto c = open_client();
  EXPECT_TRUE(eventually([&] {
    auto tasks = c->tasks("tui-sweep", "", "id");
    return tasks && tasks->size() == 3;
  }));
  // The job's row counts its 3 tasks once the worker answers, without a poll in between:
  // ACTIVE + RUNNING + COMPLETED + FAILED, the four cells after PROGRESS (`0%` at 80 columns,
  // where the JOB column shows `tui-swe…`).
  auto counted = [&] {
    auto line = line_with("│tui-swe");
    for (auto bar = line.find("│"); bar != std::string::npos; bar = line.find("│"))
      line.replace(bar, std::string("│").size(), " ");
    std::istringstream in(line);
    std::vector<std::string> cells;
    for (std::string cell; in >> cell;) cells.push_back(cell);
    auto at = std::find_if(cells.begin(), cells.end(),
                           [](const std::string& text) { return text.back() == '%'; }) -
              cells.begin();
    if (cells.size() < static_cast<size_t>(at) + 5) return -1;
    int sum = 0;  // QUEUED RUNNING DONE FAILED
    for (auto i = at + 1; i < at + 5; ++i) sum += std::stoi(cells[static_cast<size_t>(i)]);
    return sum;
  };
  EXPECT_TRUE(eventually([&] {
    pumped();
    return counted() == 3;
  })) << screen();
}

TEST_F(TuiBatch, AWrongKeySaysSoInThePaneNotAnEmptyTable) {
  ::setenv("TY_TUI_WRONG_KEY", "d3Jvbmcta2V5LXdyb25nLWtleS13cm9uZy1rZXktd3Jvbmc=", 1);
  auto a = fixture_.ctx().settings.accounts.front();
  a.name = "wrongkey";
  a.auth.key_env = "TY_TUI_WRONG_KEY";
  fixture_.ctx().settings.accounts.push_back(a);
  open_batch("pools", false, "", "wrongkey");
  go_live();
  EXPECT_TRUE(eventually([&] {
    return pumped().find("cannot read wrongkey: AuthenticationFailed") != std::string::npos;
  })) << screen();
  EXPECT_EQ(screen().find("string to sign"), std::string::npos) << screen();
}

TEST_F(TuiBatch, ARunningTasksSparklineFillsWithoutOpeningItsLog) {
  const std::string loop =
      "i=0; while [ $i -lt 60 ]; do i=$((i+1)); echo \"epoch $i loss=0.$((100-i))\"; sleep 0.2; "
      "done";
  auto c = open_client();
  ASSERT_TRUE(c->add_task("seed-sweep", {{"id", "live"}, {"commandLine", loop}}).ok());
  open_batch("tasks", false, "seed-sweep");
  select_task("live");
  go_live();
  auto has_spark = [&](const std::string& line) {
    for (const char* b : {"▁", "▂", "▃", "▄", "▅", "▆", "▇", "█"})
      if (line.find(b) != std::string::npos) return true;
    return false;
  };
  EXPECT_TRUE(eventually([&] {
    pumped();
    auto row = line_with("│live");
    // 80 columns: the state in its short form (running → run)
    return row.find(" run ") != std::string::npos && has_spark(row);
  })) << screen();
}

TEST_F(TuiBatch, TheNodesPaneOpensOnTheAccountsFirstPool) {
  open_batch("nodes");
  EXPECT_NE(screen().find("Nodes · seed-cpu"), std::string::npos) << screen();
}

// `h` on a job asks the service for the job's state on the worker, so it disables an active job
// and enables it again, whatever the cache says.
TEST_F(TuiBatch, HDisablesAnActiveJobAndEnablesItAgain) {
  open_batch("jobs");
  auto c = open_client();
  auto state = [&] {
    auto j = azure::get_job(*c, "seed-sweep");
    return j ? j->state : JobState::Deleting;
  };
  ASSERT_EQ(state(), JobState::Active);
  keys("h");
  EXPECT_TRUE(eventually([&] { return state() == JobState::Disabled; })) << screen();
  keys("h");
  EXPECT_TRUE(eventually([&] { return state() == JobState::Active; })) << screen();
}

// `h` on a node toggles its scheduling from the service's state.
TEST_F(TuiBatch, HDisablesANodesSchedulingAndEnablesItAgain) {
  open_batch("nodes");
  auto c = open_client();
  auto before = c->nodes("seed-cpu");
  ASSERT_TRUE(before.ok());
  ASSERT_FALSE(before->empty());
  {
    // The node's scheduling is read from the service on the worker, not from the UI's cache.
    StatementCounter counter(fixture_.ctx().store->handle());
    tui_->handle_key(KeyEvent::character('h'));
    EXPECT_EQ(counter.count(), 0);
  }
  auto scheduling = [&] {
    auto nodes = c->nodes("seed-cpu");
    int disabled = 0;
    for (const auto& n : nodes.value_or(std::vector<Node>{}))
      disabled += n.scheduling_state == SchedulingState::Disabled;
    return disabled;
  };
  EXPECT_TRUE(eventually([&] { return scheduling() == 1; })) << screen();
  keys("h");
  EXPECT_TRUE(eventually([&] { return scheduling() == 0; })) << screen();
}

}  // namespace
}  // namespace trainyard::tui_batch_test
