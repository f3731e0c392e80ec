// Marks, bulk actions, wide mode, the column chooser and the JSON view, as a user drives them:
// snapshots of each at 80x24 and 200x60, local bulk removal, and a bulk terminate against
// `trainyard emulator` (read-only refused).
#include <gtest/gtest.h>

#include <sstream>
#include <thread>

#include "azure/batch_actions.hpp"
#include "tui_batch_fixture.hpp"

namespace trainyard {
namespace {

using namespace std::chrono_literals;
using apptest::kNormal;
using apptest::TuiBatch;
using apptest::TuiScreen;

constexpr TermSize kWide{200, 60};

class TuiMarks : public TuiScreen {
 protected:
  std::string screen() { return term_->last_frame().to_text(); }
  bool shows(const std::string& text) { return screen().find(text) != std::string::npos; }
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
    EXPECT_TRUE(shows("Stop 2 runs?")) << screen();
    expect(size.width == 80 ? "bulk_stop_confirm_80x24" : "bulk_stop_confirm_200x60");
    keys("n");
  }
}

// lr-0001 and lr-0003 are finished: both are removed after one Yes, one line counts them, and
// the marks are gone.
TEST_F(TuiMarks, ABulkRemoveTakesEveryMarkedRunAndCountsThem) {
  open(kNormal, "tasks", "resnet-sweep");
  keys("j j Space j Space x");
  EXPECT_TRUE(shows("Remove 2 runs?")) << screen();
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
  // Jobs on the local account show 8 columns: hide every one; the last refuses.
  for (int i = 0; i < 8; ++i) keys("Space j");
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

TEST_F(TuiMarks, YOnALocalTaskAddsItsRunRecordAndScrolls) {
  open(kNormal, "tasks", "resnet-sweep");
  select_task("lr-0001");
  keys("y");
  EXPECT_TRUE(shows("\"commandLine\"")) << screen();
  keys("G");
  EXPECT_TRUE(shows("\"localRun\"") || shows("\"workdir\"")) << screen();
  EXPECT_FALSE(shows("\"commandLine\"")) << screen();
  keys("g");
  EXPECT_TRUE(shows("\"commandLine\"")) << screen();
  keys("q");
  EXPECT_TRUE(shows("Tasks · resnet-sweep")) << screen();
}

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

// Two of the seeded job's tasks marked, one `s`, one Yes: both are terminated at the service,
// and one line counts them.
TEST_F(TuiBatch, MarkedTasksAreTerminatedTogether) {
  open_batch("tasks", false, "seed-sweep");
  keys("Space j Space");
  const std::string first = row_id(screen(), 0), second = row_id(screen(), 1);
  ASSERT_NE(first, second) << screen();
  keys("s");
  ASSERT_NE(screen().find("Terminate 2 tasks?"), std::string::npos) << screen();
  keys("y");
  auto c = open_client();
  auto completed = [&](const std::string& id) {
    auto t = azure::get_task(*c, "seed-sweep", id);
    return t && t->state == TaskState::Completed;
  };
  EXPECT_TRUE(eventually([&] { return completed(first) && completed(second); }))
      << first << " " << second;
  EXPECT_TRUE(eventually([&] {
    return pumped().find("terminate 2 tasks: 2 done") != std::string::npos;
  })) << screen();
}

TEST_F(TuiBatch, MarkedRowsOnAReadOnlyAccountAreRefused) {
  open_batch("tasks", true, "seed-sweep");
  keys("Space j Space s");
  EXPECT_EQ(screen().find("Terminate 2 tasks?"), std::string::npos) << screen();
  EXPECT_NE(screen().find("read-only"), std::string::npos) << screen();
}

}  // namespace
}  // namespace trainyard
