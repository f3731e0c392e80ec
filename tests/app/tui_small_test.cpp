// Small things a user hit: `q` goes back from a sub-pane, status messages carry their origin
// and go stale, log search wraps and `/` starts a new query, enum columns shorten by rule.
#include <gtest/gtest.h>

#include "store/store.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_small_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;
using namespace std::chrono_literals;

class TuiSmall : public TuiScreen {
 protected:
  std::string row(int y) {
    auto text = term_->last_frame().to_text();
    size_t at = 0;
    for (int i = 0; i < y && at != std::string::npos; ++i) at = text.find('\n', at) + 1;
    return text.substr(at, text.find('\n', at) - at);
  }
  std::string roles(int y) {
    auto map = term_->last_frame().to_role_map();
    size_t at = 0;
    for (int i = 0; i < y; ++i) at = map.find('\n', at) + 1;
    return map.substr(at, map.find('\n', at) - at);
  }
  std::string status_line() { return row(term_->size().height - 1); }
  std::string title() { return row(1); }

  // Opens `view` of account `account` at `size` (the fixture's screen opens only local).
  void open_account(TermSize size, const std::string& account, const std::string& view) {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = view;
    o.account = account;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
  }

  // A contoso pool whose nodes are in the states with the longest names.
  void seed_contoso_nodes() {
    auto& s = *fixture_.ctx().store;
    Pool p;
    p.account = "contoso";
    p.id = "gpu";
    p.vm_size = "standard_nc6";
    ASSERT_TRUE(s.upsert_pool(p).ok());
    int i = 0;
    for (auto state : {NodeState::WaitingForStartTask, NodeState::StartTaskFailed,
                       NodeState::Preempted, NodeState::Running}) {
      Node n;
      n.account = "contoso";
      n.pool_id = "gpu";
      n.id = "tvm-" + std::to_string(i++);
      n.state = state;
      ASSERT_TRUE(s.upsert_node(n).ok());
    }
  }
};

TEST_F(TuiSmall, QInASubPaneGoesBackAndQuitsAtTheTop) {
  open(kNormal, "jobs");
  keys("g Enter");
  ASSERT_NE(title().find("Tasks · resnet-sweep"), std::string::npos) << title();
  keys("q");
  EXPECT_FALSE(tui_->done());
  EXPECT_NE(title().find("Jobs · local"), std::string::npos) << title();
  keys("q");
  EXPECT_TRUE(tui_->done());
}

TEST_F(TuiSmall, QWalksBackFromLogsThroughTasks) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter");
  ASSERT_NE(title().find("Logs · resnet-sweep/lr-0001"), std::string::npos) << title();
  keys("q");
  EXPECT_NE(title().find("Tasks · resnet-sweep"), std::string::npos) << title();
  keys("q");
  EXPECT_NE(title().find("Jobs · local"), std::string::npos) << title();
  EXPECT_FALSE(tui_->done());
}

TEST_F(TuiSmall, QInNodesGoesBackToPools) {
  open(kNormal, "nodes");
  ASSERT_NE(title().find("Nodes · local"), std::string::npos) << title();
  keys("q");
  EXPECT_NE(title().find("Pools · local"), std::string::npos) << title();
  EXPECT_FALSE(tui_->done());
}

TEST_F(TuiSmall, CtrlCQuitsFromASubPane) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("C-c");
  EXPECT_TRUE(tui_->done());
}

// The hint bar says what q does where it is.
TEST_F(TuiSmall, HintBarSaysBackInASubPane) {
  open(kNormal, "jobs");
  EXPECT_NE(row(22).find("<q> quit"), std::string::npos) << row(22);
  keys("g Enter");
  EXPECT_NE(row(22).find("<q> back"), std::string::npos) << row(22);
  EXPECT_EQ(row(22).find("<q> quit"), std::string::npos) << row(22);
}

// An error made in the log pane, then the user goes back to Tasks: the message stays, dimmed
// and marked as the log search's and earlier.
TEST_F(TuiSmall, MessageGoesStaleWhenTheUserMovesOn) {
  open(kNormal, "jobs");
  keys("g Enter j j Enter /");  // resnet-sweep, then lr-0001's log
  type("zzz");
  keys("Enter");
  EXPECT_EQ(status_line().rfind(" [Logs · search] 'zzz' not found", 0), 0u) << status_line();
  keys("q");
  expect("stale_message_80x24");
}

// Info hints are not worth keeping once the user moved on.
TEST_F(TuiSmall, InfoMessageIsClearedWhenTheUserMovesOn) {
  open(kNormal, "jobs");
  keys("F5");
  EXPECT_NE(status_line().find("F5 does nothing here"), std::string::npos) << status_line();
  keys("g Enter");
  EXPECT_EQ(status_line().find("does nothing"), std::string::npos) << status_line();
}

// On a Batch account's pane another process commits (as a poller does): the message predates
// the data.
TEST_F(TuiSmall, MessageGoesStaleWhenNewerDataArrives) {
  open_account(kNormal, "contoso", "jobs");
  keys(":");
  type("bogus");
  keys("Enter");
  auto other = Store::open(fixture_.dir() + "/cache.db");
  ASSERT_TRUE(other.ok()) << other.error().message;
  Job j;
  j.account = "contoso";
  j.id = "late-job";
  j.pool_id = "gpu";
  ASSERT_TRUE((*other)->upsert_job(j).ok());
  tui_->refresh();
  tui_->draw();
  EXPECT_EQ(status_line().rfind(" [earlier] unknown command", 0), 0u) << status_line();
}

// Local data is live (a supervisor commits all the time): it does not dim a local message.
TEST_F(TuiSmall, LocalDataChangesLeaveTheMessageFresh) {
  open(kNormal, "jobs");
  keys(":");
  type("bogus");
  keys("Enter");
  auto other = Store::open(fixture_.dir() + "/cache.db");
  ASSERT_TRUE(other.ok()) << other.error().message;
  Job j;
  j.account = kLocalAccount;
  j.id = "late-job";
  j.pool_id = kLocalPool;
  ASSERT_TRUE((*other)->upsert_job(j).ok());
  tui_->refresh();
  tui_->draw();
  EXPECT_EQ(status_line().rfind(" unknown command ':bogus'", 0), 0u) << status_line();
}

// The last fetch of the pane's data failed: the error is shown, and the age is not fresh.
TEST_F(TuiSmall, FetchErrorMarksTheDataAgeStale) {
  seed_contoso_nodes();
  SyncMark m;
  m.scope = kPoolsScope;
  m.checked_at = apptest::kFixtureNow - 40s;
  m.error = "GET /pools: refused";
  ASSERT_TRUE(fixture_.ctx().store->set_sync_mark("contoso", m).ok());
  open_account(kNormal, "contoso", "pools");
  auto line = status_line();
  EXPECT_EQ(line.rfind(" [contoso Pools] sync: GET /pools: refused ", 0), 0u) << line;
  EXPECT_NE(line.find("  data 40s old (stale)"), std::string::npos) << line;
}

// Logs of lr-0001: "epoch" is on line 0 (cells 17-21, after a 16-cell placeholder) and line 7
// (cells 1-5); the current match is drawn '*', the others 'M'.
TEST_F(TuiSmall, ForwardSearchWrapsAroundAndSaysSo) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter /");
  type("epoch");
  keys("Enter");
  EXPECT_EQ(roles(2).substr(17, 5), "*****");
  keys("n");
  EXPECT_EQ(roles(9).substr(1, 5), "*****");
  EXPECT_EQ(row(20).find("search wrapped"), std::string::npos) << row(20);
  keys("n");
  EXPECT_EQ(roles(2).substr(17, 5), "*****") << term_->last_frame().to_role_map();
  EXPECT_EQ(roles(9).substr(1, 5), "MMMMM");
  EXPECT_NE(row(20).find("search wrapped"), std::string::npos) << row(20);
  EXPECT_EQ(status_line().find("not found"), std::string::npos) << status_line();
  keys("n");  // a step that does not wrap clears the note
  EXPECT_EQ(row(20).find("search wrapped"), std::string::npos) << row(20);
}

TEST_F(TuiSmall, BackwardSearchWrapsToTheEnd) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter /");
  type("epoch");
  keys("Enter N");
  EXPECT_EQ(roles(9).substr(1, 5), "*****");
  EXPECT_NE(row(20).find("search wrapped"), std::string::npos) << row(20);
}

// `/` opens an empty prompt and searches the new text from the top of the screen; "loss" on
// line 0 is at cells 34-37.
TEST_F(TuiSmall, SlashStartsANewQuery) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter /");
  type("epoch");
  keys("Enter n /");
  EXPECT_EQ(row(22), "/") << row(22);
  type("loss");
  keys("Enter");
  EXPECT_EQ(roles(2).substr(34, 4), "****") << term_->last_frame().to_role_map();
  EXPECT_NE(row(20).find("/loss"), std::string::npos) << row(20);
}

TEST_F(TuiSmall, TasksAt80ColumnsUseShortStateForms) {
  open(kNormal, "jobs");
  keys("g Enter");
  expect("tasks_80x24");
}

TEST_F(TuiSmall, TasksAt160ColumnsUseFullStateForms) {
  open({160, 45}, "jobs");
  keys("g Enter");
  expect("tasks_160x45");
}

// A Batch pool's nodes at 80 columns: too narrow for "waitingforstarttask", so every state is
// in its short form; at 160 the full names.
TEST_F(TuiSmall, NodeStatesShortenByRuleAt80Columns) {
  seed_contoso_nodes();
  open_account(kNormal, "contoso", "pools");
  keys("Enter");
  auto text = term_->last_frame().to_text();
  EXPECT_NE(row(3).find(" waiting "), std::string::npos) << row(3);
  EXPECT_NE(row(4).find(" st-fail "), std::string::npos) << row(4);
  EXPECT_NE(row(5).find(" preempt "), std::string::npos) << row(5);
  EXPECT_NE(row(6).find(" run "), std::string::npos) << row(6);
  EXPECT_EQ(text.find("waitingfor"), std::string::npos) << text;
}

TEST_F(TuiSmall, NodeStatesInFullAt160Columns) {
  seed_contoso_nodes();
  open_account({160, 45}, "contoso", "pools");
  keys("Enter");
  EXPECT_NE(row(3).find(" waitingforstarttask "), std::string::npos) << row(3);
  EXPECT_NE(row(4).find(" starttaskfailed "), std::string::npos) << row(4);
  EXPECT_NE(row(5).find(" preempted "), std::string::npos) << row(5);
  EXPECT_NE(row(6).find(" running "), std::string::npos) << row(6);
}

}  // namespace
}  // namespace trainyard::tui_small_test
