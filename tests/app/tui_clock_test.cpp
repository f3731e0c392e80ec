// Every age on screen is read from the context's clock: the screen tests' clock stands at
// kFixtureNow, so a row's age is exact, and moving the clock moves the ages.
#include <gtest/gtest.h>

#include <sstream>

#include "store/store.hpp"
#include "sync/incremental_sync.hpp"
#include "tui_screen.hpp"

namespace trainyard::tui_clock_test {
namespace {

using apptest::kNormal;
using apptest::TuiScreen;
using namespace std::chrono_literals;

class TuiClock : public TuiScreen {
 protected:
  // The screen line that contains `text` ("" when none does).
  std::string line_with(const std::string& text) {
    std::istringstream in(term_->last_frame().to_text());
    for (std::string line; std::getline(in, line);)
      if (line.find(text) != std::string::npos) return line;
    return "";
  }
  // The line's last cell: the text between its last two runs of spaces and the border.
  static std::string last_cell(const std::string& line) {
    const std::string border = "\u2502";
    auto end = line.rfind(border);
    auto start = line.rfind(' ', end - 1) + 1;
    return line.substr(start, end - start);
  }
  void add_job(const std::string& account, const std::string& id, Timestamp created) {
    Job j;
    j.account = account;
    j.id = id;
    j.pool_id = account == kLocalAccount ? kLocalPool : "gpu";
    j.creation_time = j.state_transition_time = created;
    ASSERT_TRUE(fixture_.ctx().store->upsert_job(j).ok());
  }
  void open_account(const std::string& account, const std::string& view, TermSize size = kNormal) {
    term_ = std::make_unique<HeadlessTerminal>(size);
    TuiOptions o;
    o.view = view;
    o.account = account;
    tui_ = std::make_unique<Tui>(fixture_.ctx(), *term_, o);
    tui_->draw();
  }
  void advance(Duration d) {
    manual_clock().advance(d);
    tui_->refresh();
    tui_->draw();
  }
};

// A job created 300 s before the clock's now is 5m old, whenever the test runs.
TEST_F(TuiClock, JobAgeIsReadFromTheContextClock) {
  add_job(kLocalAccount, "fresh", apptest::kFixtureNow - 300s);
  open(kNormal, "jobs");
  EXPECT_EQ(last_cell(line_with("fresh")), "5m") << line_with("fresh");
}

// Two hours later the same job is 2h old, and the running task (started 3h30m before the
// fixture's now) has run 5h30m, shown 5h.
TEST_F(TuiClock, MovingTheClockMovesAgesAndRunningDurations) {
  add_job(kLocalAccount, "fresh", apptest::kFixtureNow - 300s);
  open(kNormal, "jobs");
  ASSERT_EQ(last_cell(line_with("fresh")), "5m");
  advance(2h);
  EXPECT_EQ(last_cell(line_with("fresh")), "2h") << line_with("fresh");
  open(kNormal, "tasks", "resnet-sweep");
  auto running = line_with("lr-0010");
  EXPECT_NE(running.find(" run "), std::string::npos) << running;
  // Started 3h30m before the fixture's now; two hours on it has run 5h30m.
  EXPECT_NE(running.find(" 5h30m "), std::string::npos) << running;
}

// A Batch job's SYNCED cell says how long ago its tasks were confirmed: 90 s is 1m, and 10 min
// later 11m.
TEST_F(TuiClock, SyncedAgeIsReadFromTheContextClock) {
  add_job("contoso", "train", apptest::kFixtureNow - 3h);
  SyncMark m;
  m.scope = tasks_scope("train");
  m.checked_at = apptest::kFixtureNow - 90s;
  ASSERT_TRUE(fixture_.ctx().store->set_sync_mark("contoso", m).ok());
  // At 80 columns SYNCED is dropped for COST; at 120 both are shown, SYNCED before COST.
  open_account("contoso", "jobs", {120, 30});
  EXPECT_NE(line_with("train").find("   1m "), std::string::npos) << line_with("train");
  advance(10min);
  EXPECT_NE(line_with("train").find("  11m "), std::string::npos) << line_with("train");
}

}  // namespace
}  // namespace trainyard::tui_clock_test
