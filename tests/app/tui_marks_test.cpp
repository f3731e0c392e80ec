// Marks, bulk actions, wide mode, the column chooser and the JSON view, as a user drives them:
// snapshots of each at 80x24 and 200x60, local bulk removal, and a bulk terminate against
// `trainyard emulator` (read-only refused).
#include <gtest/gtest.h>

#include <algorithm>
#include <sstream>
#include <thread>

#include <fmt/format.h>

#include "azure/batch_actions.hpp"
#include "tui_batch_fixture.hpp"

namespace trainyard::tui_marks_test {
namespace {

using namespace std::chrono_literals;
using apptest::kNormal;
using apptest::TuiBatch;
using apptest::TuiScreen;

constexpr TermSize kWide{200, 60};

// The id in the table's `n`-th row (0: the first under the header) of `screen`.
std::string row_id(const std::string& screen, int n) {
  std::istringstream in(screen);
  std::string line;
  for (int i = 0; i < 3 + n && std::getline(in, line);) ++i;
  std::getline(in, line);
  auto start = line.find_first_not_of("│ ●");
  std::istringstream words(line.substr(start == std::string::npos ? 0 : start));
  std::string id;
  words >> id;
  return id;
}

// The ids of the table rows of `screen` that carry a mark (`marked`) or not.
std::vector<std::string> rows_marked(const std::string& screen, bool marked) {
  std::vector<std::string> ids;
  for (int row = 0;; ++row) {
    auto id = row_id(screen, row);
    if (id.empty() || id == "│" || id == "└") break;
    std::istringstream in(screen);
    std::string line;
    for (int i = 0; i <= 3 + row; ++i) std::getline(in, line);
    if ((line.find("\u25cf") != std::string::npos) == marked) ids.push_back(id);
  }
  return ids;
}

class TuiMarks : public TuiScreen {
 protected:
  std::string screen() { return term_->last_frame().to_text(); }
  bool shows(const std::string& text) { return screen().find(text) != std::string::npos; }
  // Job `queue` with four queued local runs q1 to q4 (the fixture's one CPU slot is taken
  // by lr-0010, so they stay queued).
  void seed_queue() {
    auto& store = *fixture_.ctx().store;
    Job j;
    j.account = kLocalAccount;
    j.id = "queue";
    j.pool_id = kLocalPool;
    j.creation_time = j.state_transition_time = apptest::kFixtureNow - 1h;
    ASSERT_TRUE(store.upsert_job(j).ok());
    for (const char* id : {"q1", "q2", "q3", "q4"}) {
      Task t;
      t.account = kLocalAccount;
      t.job_id = "queue";
      t.id = id;
      t.command_line = "sleep 600";
      t.creation_time = t.state_transition_time = apptest::kFixtureNow - 30min;
      ASSERT_TRUE(store.upsert_task(t).ok());
    }
  }
  std::optional<Task> stored(const std::string& id) {
    auto t = fixture_.ctx().store->task(kLocalAccount, "queue", id);
    return t && *t ? std::optional<Task>(**t) : std::nullopt;
  }
};

// lr-0030 (first row) and lr-0001 (third) marked: a mark before their ids, `2 marked` in the
// status line.
TEST_F(TuiMarks, MarkedRowsAreShownAndCounted) {
  for (auto size : {kNormal, kWide}) {
    open(size, "tasks", "resnet-sweep");
    keys("Space j j Space");
    EXPECT_TRUE(shows("\u25cf lr-0030")) << screen();
    EXPECT_TRUE(shows("\u25cf lr-0001")) << screen();
    EXPECT_FALSE(shows("\u25cf lr-0010")) << screen();
    EXPECT_TRUE(shows("2 marked")) << screen();
    expect(size.width == 80 ? "tasks_marked_80x24" : "tasks_marked_200x60");
  }
}

TEST_F(TuiMarks, SpaceAgainUnmarks) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("Space Space");
  EXPECT_FALSE(shows("\u25cf")) << screen();
  EXPECT_FALSE(shows("marked ·")) << screen();
}

TEST_F(TuiMarks, OneConfirmationSaysHowMany) {
  for (auto size : {kNormal, kWide}) {
    open(size, "tasks", "resnet-sweep");
    keys("Space j Space s");
    EXPECT_TRUE(shows("Stop 2 runs (lr-0030, lr-0010)?")) << screen();
    expect(size.width == 80 ? "bulk_stop_confirm_80x24" : "bulk_stop_confirm_200x60");
    keys("n");
  }
}

// lr-0001 and lr-0003 are finished: both are removed after one Yes, one line counts them, and
// the marks are gone.
TEST_F(TuiMarks, ABulkRemoveTakesEveryMarkedRunAndCountsThem) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("j j Space j Space x");
  EXPECT_TRUE(shows("Remove 2 runs (lr-0001, lr-0003)?")) << screen();
  keys("y");
  EXPECT_TRUE(shows("remove 2 runs: 2 done")) << screen();
  EXPECT_FALSE(shows("lr-0001")) << screen();
  EXPECT_FALSE(shows("lr-0003")) << screen();
  EXPECT_TRUE(shows("lr-0010")) << screen();
  EXPECT_FALSE(shows("marked")) << screen();
}

// One of two fails (lr-0030 is queued, not finished: it cannot be removed): the line says so.
TEST_F(TuiMarks, ABulkActionSaysHowManyFailed) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("Space j j Space x y");
  EXPECT_TRUE(shows("remove 2 runs: 1 done, 1 failed (lr-0030")) << screen();
}

// Three of job queue's four queued runs marked, one `s`, one Yes: the store has each of the
// three stopped (completed, TaskTerminated) and the fourth still queued.
TEST_F(TuiMarks, ABulkStopStopsEveryMarkedRunInTheStore) {
  seed_queue();
  open(kNormal, "tasks", "queue");
  keys("g Space j Space j Space");
  auto ids = rows_marked(screen(), true), unmarked = rows_marked(screen(), false);
  ASSERT_EQ(ids.size(), 3u) << screen();
  ASSERT_EQ(unmarked.size(), 1u) << screen();
  ids.push_back(unmarked[0]);
  auto sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(sorted, (std::vector<std::string>{"q1", "q2", "q3", "q4"})) << screen();
  EXPECT_TRUE(shows("3 marked")) << screen();
  keys("s");
  EXPECT_TRUE(shows(fmt::format("Stop 3 runs ({}, {}, {})?", ids[0], ids[1], ids[2]))) << screen();
  keys("y");
  EXPECT_TRUE(shows("stop 3 runs: 3 done")) << screen();
  for (int row = 0; row < 3; ++row) {
    auto t = stored(ids[row]);
    ASSERT_TRUE(t) << ids[row];
    EXPECT_EQ(t->state, TaskState::Completed) << ids[row];
    ASSERT_TRUE(t->execution_info.failure_info) << ids[row];
    EXPECT_EQ(t->execution_info.failure_info->code, "TaskTerminated") << ids[row];
  }
  ASSERT_TRUE(stored(ids[3]));
  EXPECT_EQ(stored(ids[3])->state, TaskState::Active) << ids[3];
  EXPECT_FALSE(shows("marked")) << screen();
}

// The local Jobs pane has no action that takes marked rows: Space says so and marks nothing.
TEST_F(TuiMarks, SpaceMarksNothingWhereNoActionTakesMarks) {
  open(kNormal, "jobs");
  keys("Space");
  EXPECT_TRUE(shows("no action of this pane takes marked rows")) << screen();
  EXPECT_FALSE(shows("\u25cf")) << screen();
}

// The Grep pane lists log lines: Space marks none and `y` says what it shows instead of
// claiming no row is selected.
TEST_F(TuiMarks, GrepResultsAreNeitherMarkedNorShownAsJson) {
  open(kNormal, "tasks", "resnet-sweep");
  keys(":");
  type("grep loss");
  keys("Enter");
  ASSERT_TRUE(shows("loss")) << screen();
  keys("Space");
  EXPECT_TRUE(shows("no action of this pane takes marked rows")) << screen();
  keys("y");
  EXPECT_TRUE(shows("y shows a pool, node, job, task or account: this pane lists none"))
      << screen();
}

// `y` over a marked row and back: the mark is still there, and still counted.
TEST_F(TuiMarks, MarksStayWhileASubPaneIsOpenOverThem) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("Space y");
  EXPECT_TRUE(shows("JSON · task lr-0030")) << screen();
  keys("q");
  EXPECT_TRUE(shows("\u25cf lr-0030")) << screen();
  EXPECT_TRUE(shows("1 marked")) << screen();
}

TEST_F(TuiMarks, NoMarksActsOnTheSelectedRowAsBefore) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("s");
  EXPECT_TRUE(shows("Stop resnet-sweep/lr-0030?")) << screen();
}

TEST_F(TuiMarks, MarksAreForgottenOnAnotherPane) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("Space q Enter");
  EXPECT_FALSE(shows("\u25cf")) << screen();
  EXPECT_FALSE(shows("marked")) << screen();
}

TEST_F(TuiMarks, WideModeAddsTheTimeColumns) {
  for (auto size : {kNormal, kWide}) {
    open(size, "tasks", "resnet-sweep");
    EXPECT_FALSE(shows("STARTED")) << screen();
    keys("W");
    if (size.width == 200) {
      EXPECT_TRUE(shows("STARTED")) << screen();
    }
    expect(size.width == 80 ? "tasks_wide_80x24" : "tasks_wide_200x60");
    keys("W");
    EXPECT_FALSE(shows("STARTED")) << screen();
  }
}

// The local Jobs pane sorts by job, state, pool, progress, queued, running, done, failed and
// age, then its own order: the 10th `o` passes over CREATED and STATE SINCE while wide mode
// hides them, and sorts by created once W shows it.
TEST_F(TuiMarks, SortingPassesOverTheColumnsWideModeHides) {
  open(kNormal, "jobs");
  for (int i = 0; i < 9; ++i) keys("o");
  EXPECT_TRUE(shows("sorted by age ascending")) << screen();
  keys("o");
  EXPECT_TRUE(shows("sorted in the pane's own order")) << screen();
  keys("W");
  for (int i = 0; i < 10; ++i) keys("o");
  EXPECT_TRUE(shows("sorted by created ascending")) << screen();
}

TEST_F(TuiMarks, TheColumnChooserListsThePanesColumns) {
  for (auto size : {kNormal, kWide}) {
    open(size, "tasks", "resnet-sweep");
    keys("C");
    EXPECT_TRUE(shows("Columns · tasks")) << screen();
    expect(size.width == 80 ? "columns_80x24" : "columns_200x60");
  }
}

// STATE is the second column: hidden with Space, it is gone from the Tasks pane (and from the
// Jobs pane's choice nothing changes).
TEST_F(TuiMarks, AHiddenColumnStaysHiddenForTheSession) {
  open(kNormal, "tasks", "resnet-sweep");
  EXPECT_TRUE(shows("STATE")) << screen();
  keys("C j Space q");
  EXPECT_FALSE(shows("STATE")) << screen();
  EXPECT_TRUE(shows("EXIT")) << screen();
  keys("q");
  EXPECT_TRUE(shows("STATE")) << screen();  // the Jobs pane keeps its own
  keys("Enter");
  EXPECT_FALSE(shows("STATE")) << screen();
}

TEST_F(TuiMarks, TheLastColumnStaysShown) {
  open(kNormal, "jobs");
  keys("C");
  // Jobs on the local account show 9 columns: hide every one; the last refuses.
  for (int i = 0; i < 9; ++i) keys("Space j");
  EXPECT_TRUE(shows("one column stays shown")) << screen();
}

TEST_F(TuiMarks, YShowsTheJobAsWireJson) {
  for (auto size : {kNormal, kWide}) {
    open(size, "jobs");
    keys("g y");
    EXPECT_TRUE(shows("\"id\": \"resnet-sweep\"")) << screen();
    expect(size.width == 80 ? "json_job_80x24" : "json_job_200x60");
  }
}

// A row of :alljobs is `account/job`: y shows that account's job.
TEST_F(TuiMarks, YOnAllJobsShowsTheRowsJobOfItsAccount) {
  open(kNormal, "jobs");
  keys(":");
  type("alljobs");
  keys("Enter");
  ASSERT_TRUE(shows("Jobs · every account")) << screen();
  keys("/");
  type("resnet-sweep");
  keys("Enter y");
  EXPECT_TRUE(shows("JSON · job resnet-sweep")) << screen();
  EXPECT_TRUE(shows("\"id\": \"resnet-sweep\"")) << screen();
  EXPECT_TRUE(shows("\"poolId\": \"local\"")) << screen();
}

// lr-0010 is a running local run: its JSON adds the run record (the fixture's run directory
// and working directory); G shows the last lines, g the first, q goes back.
TEST_F(TuiMarks, YOnALocalTaskAddsItsRunRecordAndScrolls) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("lr-0010");
  keys("y");
  EXPECT_TRUE(shows("JSON · task lr-0010")) << screen();
  EXPECT_TRUE(shows("\"commandLine\": \"python3 train.py --lr 0.010\"")) << screen();
  keys("G");
  EXPECT_TRUE(shows("\"stateTransitionTime\"")) << screen();
  EXPECT_FALSE(shows("\"commandLine\"")) << screen();
  keys("g");
  EXPECT_TRUE(shows("\"commandLine\"")) << screen();
  keys("NPage");
  EXPECT_TRUE(shows("\"runDir\": \"runs/resnet-sweep/lr-0010\"")) << screen();
  EXPECT_TRUE(shows("\"workdir\": \"/\"")) << screen();
  keys("q");
  EXPECT_TRUE(shows("Tasks · resnet-sweep")) << screen();
}

// Four running tasks added to the seeded job, three marked, one `s`, one Yes: the service has
// those three completed (terminated) and the fourth still running, and one line counts them.
TEST_F(TuiBatch, MarkedTasksAreTerminatedTogether) {
  auto c = open_client();
  for (const char* id : {"bulk-1", "bulk-2", "bulk-3", "bulk-4"})
    ASSERT_TRUE(c->add_task("seed-sweep", {{"id", id}, {"commandLine", "sleep 60"}}).ok());
  SyncScope scope{emu_.account(), AccountKind::Emulator, emu_.endpoint()};
  ASSERT_TRUE(full_sync(*fixture_.ctx().store, *c, scope).ok());
  open_batch("tasks", false, "seed-sweep");
  select_task("bulk");
  keys("g Space j Space j Space");
  auto ids = rows_marked(screen(), true), unmarked = rows_marked(screen(), false);
  ASSERT_EQ(ids.size(), 3u) << screen();
  ASSERT_EQ(unmarked.size(), 1u) << screen();
  ids.push_back(unmarked[0]);
  auto sorted = ids;
  std::sort(sorted.begin(), sorted.end());
  ASSERT_EQ(sorted, (std::vector<std::string>{"bulk-1", "bulk-2", "bulk-3", "bulk-4"})) << screen();
  keys("s");
  ASSERT_NE(screen().find(fmt::format("Terminate 3 tasks ({}, {}, {})?", ids[0], ids[1], ids[2])),
            std::string::npos)
      << screen();
  keys("y");
  auto state = [&](const std::string& id) {
    auto t = azure::get_task(*c, "seed-sweep", id);
    return t ? t->state : TaskState::Preparing;
  };
  EXPECT_TRUE(eventually([&] {
    return state(ids[0]) == TaskState::Completed && state(ids[1]) == TaskState::Completed &&
           state(ids[2]) == TaskState::Completed;
  })) << ids[0]
      << " " << ids[1] << " " << ids[2];
  EXPECT_NE(state(ids[3]), TaskState::Completed) << ids[3];
  EXPECT_TRUE(eventually([&] {
    return pumped().find("terminate 3 tasks: 3 done") != std::string::npos;
  })) << screen();
}

TEST_F(TuiBatch, MarkedRowsOnAReadOnlyAccountAreRefused) {
  open_batch("tasks", true, "seed-sweep");
  keys("Space j Space s");
  EXPECT_EQ(screen().find("Terminate 2 tasks"), std::string::npos) << screen();
  EXPECT_NE(screen().find("read-only"), std::string::npos) << screen();
}

}  // namespace
}  // namespace trainyard::tui_marks_test
