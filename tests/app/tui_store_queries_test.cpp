// How many statements the UI thread runs on its store connection for one key press: none, once
// the reader (a thread with its own connection) has delivered the pane's page; and the reader's
// reads are grouped, so their number does not grow with the rows.
#include <gtest/gtest.h>
#include <sqlite3.h>

#include <cstdlib>
#include <iostream>

#include "statement_counter.hpp"
#include "store/store.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_store_queries_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;

class TuiStoreQueries : public TuiScreen {
 protected:
  Store& store() { return *fixture_.ctx().store; }

  // Statements the UI thread runs for one Down key and the frame drawn after it, as the
  // interactive loop does.
  int statements_per_key() {
    StatementCounter counter(store().handle());
    tui_->handle_key(KeyEvent::named(Key::Down));
    tui_->draw();
    return counter.count();
  }

  // Statements the UI thread runs for a refresh (as a tick or a worker's news makes) and the
  // frame drawn after it.
  int statements_per_refresh() {
    StatementCounter counter(store().handle());
    tui_->refresh();
    tui_->draw();
    return counter.count();
  }

  std::string frame() { return term_->last_frame().to_text(); }

  // `n` local jobs of 3 tasks each (one running, one done, one failed).
  void add_jobs(int n, const std::string& prefix) {
    for (int i = 0; i < n; ++i) {
      Job j;
      j.account = kLocalAccount;
      j.id = prefix + std::to_string(i);
      j.pool_id = kLocalPool;
      ASSERT_TRUE(store().upsert_job(j).ok());
      for (int k = 0; k < 3; ++k) {
        Task t;
        t.account = kLocalAccount;
        t.job_id = j.id;
        t.id = "t" + std::to_string(k);
        t.state = k == 0 ? TaskState::Running : TaskState::Completed;
        t.execution_info.result = k == 2 ? TaskResult::Failure : TaskResult::Success;
        ASSERT_TRUE(store().upsert_task(t).ok());
      }
    }
  }

  // The TUI on `view` of `account` (and `job`), its first frame drawn.
  void open_on(const std::string& view, const std::string& account, const std::string& job = "") {
    TuiOptions o;
    o.view = view;
    o.account = account;
    o.job = job;
    term_ = std::make_unique<HeadlessTerminal>(kNormal);
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
  }

  // `n` pools of the cached Batch account `contoso`, 4 nodes each (one unusable).
  void add_pools(int n, const std::string& prefix) {
    for (int i = 0; i < n; ++i) {
      Pool p;
      p.account = "contoso";
      p.id = prefix + std::to_string(i);
      ASSERT_TRUE(store().upsert_pool(p).ok());
      for (int k = 0; k < 4; ++k) {
        Node node;
        node.account = "contoso";
        node.pool_id = p.id;
        node.id = "n" + std::to_string(k);
        node.state = k == 0 ? NodeState::Unusable : NodeState::Idle;
        ASSERT_TRUE(store().upsert_node(node).ok());
      }
    }
  }
};

TEST_F(TuiStoreQueries, JobsPaneKeyPressDoesNotQueryPerJob) {
  add_jobs(2, "few-");
  open(kNormal, "jobs");
  int few = statements_per_key();
  add_jobs(30, "many-");
  int many = statements_per_key();
  std::cout << "Jobs pane: " << few << " statements per key with 6 jobs, " << many << " with 36\n";
  EXPECT_EQ(many, few);
}

TEST_F(TuiStoreQueries, PoolsPaneKeyPressDoesNotReadEveryNode) {
  add_pools(2, "few-");
  open_on("pools", "contoso");
  int few = statements_per_key();
  add_pools(30, "many-");
  int many = statements_per_key();
  std::cout << "Pools pane: " << few << " statements per key with 2 pools, " << many
            << " with 32\n";
  EXPECT_EQ(many, few);
}

TEST_F(TuiStoreQueries, AJobsPaneKeyPressRunsNoStatementOnTheUiConnection) {
  add_jobs(3, "job-");
  open(kNormal, "jobs");
  EXPECT_EQ(statements_per_key(), 0);
  auto frame = term_->last_frame().to_text();
  EXPECT_NE(frame.find("job-2"), std::string::npos) << frame;  // the reader's rows are drawn
}

TEST_F(TuiStoreQueries, APoolsPaneKeyPressRunsNoStatementOnTheUiConnection) {
  add_pools(3, "pool-");
  open_on("pools", "contoso");
  EXPECT_EQ(statements_per_key(), 0);
  auto frame = term_->last_frame().to_text();
  EXPECT_NE(frame.find("pool-2"), std::string::npos) << frame;
}

TEST_F(TuiStoreQueries, ATasksPaneKeyPressRunsNoStatementOnTheUiConnection) {
  add_jobs(1, "job-");
  open_on("tasks", kLocalAccount, "job-0");
  EXPECT_EQ(statements_per_key(), 0);
  auto frame = term_->last_frame().to_text();
  EXPECT_NE(frame.find("t2"), std::string::npos) << frame;
}

// A key the pane does not know sets the status line, which notes the data's version: the
// version of the reader's last model, not a query.
TEST_F(TuiStoreQueries, AKeyThatSetsTheStatusRunsNoStatementOnTheUiConnection) {
  add_jobs(1, "job-");
  open(kNormal, "jobs");
  StatementCounter counter(store().handle());
  tui_->handle_key(KeyEvent::character('Q'));
  tui_->draw();
  EXPECT_EQ(counter.count(), 0);
  EXPECT_NE(frame().find("Q does nothing here"), std::string::npos) << frame();
}

TEST_F(TuiStoreQueries, TheDetailPaneRunsNoStatementOnTheUiConnection) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("d");
  EXPECT_EQ(statements_per_refresh(), 0);
  // The task's facts and its metric chart, as the reader read them.
  EXPECT_NE(frame().find("python3 train.py --lr 0.001"), std::string::npos) << frame();
  EXPECT_NE(frame().find("loss · stdout"), std::string::npos) << frame();
}

// A tick of the loop (once a second) asks the reader whether another connection committed:
// the UI thread does not read the data version itself.
TEST_F(TuiStoreQueries, ATickRunsNoStatementOnTheUiConnection) {
  add_jobs(4, "job");
  open_on("jobs", kLocalAccount);
  StatementCounter counter(store().handle());
  tui_->pump();
  tui_->draw();
  EXPECT_EQ(counter.count(), 0);
}

// The Sweep pane's runs, ranking, header and chart are read by the reader: sorting, marking,
// charting and another metric run no statement on the UI thread's connection.
TEST_F(TuiStoreQueries, TheSweepPaneRunsNoStatementOnTheUiConnection) {
  open_on("sweep", kLocalAccount, "resnet-sweep");
  ASSERT_NE(frame().find("best by"), std::string::npos) << frame();
  EXPECT_EQ(statements_per_key(), 0);
  for (const char* key : {"o", "Space", "c", "m", "M"}) {
    StatementCounter counter(store().handle());
    auto k = parse_key_name(key);
    ASSERT_TRUE(k) << key;
    tui_->handle_key(*k);
    tui_->draw();
    EXPECT_EQ(counter.count(), 0) << key;
  }
  EXPECT_NE(frame().find("marked run"), std::string::npos) << frame();
}

// With times on (`t`), the Logs pane's read marks come from the reader: a key, a refresh and
// marks another connection adds (as a poller does while the task runs) query nothing on the UI
// thread's connection.
TEST_F(TuiStoreQueries, TheLogsPaneWithTimesRunsNoStatementOnTheUiConnection) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("0001");
  keys("Enter t G");
  EXPECT_NE(frame().find("--:--:-- "), std::string::npos) << frame();
  EXPECT_EQ(statements_per_key(), 0);
  auto writer = Store::open(fixture_.dir() + "/cache.db");
  ASSERT_TRUE(writer) << writer.error().message;
  // One mark past the end of the file dates every line: lr-0001 ended at 10:42:17.
  ASSERT_TRUE((*writer)->add_log_mark(kLocalAccount, "resnet-sweep", "lr-0001", "stdout.txt",
                                      {1 << 20, *parse_iso8601("2024-03-01T10:42:20Z")}));
  EXPECT_EQ(statements_per_refresh(), 0);
  EXPECT_EQ(frame().find("--:--:-- "), std::string::npos) << frame();
  EXPECT_NE(frame().find("10:42:20 "), std::string::npos) << frame();
}

}  // namespace
}  // namespace trainyard::tui_store_queries_test
