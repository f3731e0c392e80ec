// The read marks a log view dates its lines by, read after the last one the view holds and
// taken on the UI thread: newer marks are appended, marks cleared for a new attempt replace the
// old ones, and a read that no longer follows what the view holds changes nothing.
#include "tui_log_marks.hpp"

#include <gtest/gtest.h>

#include "tui_fixture.hpp"
#include "tui_state.hpp"

namespace trainyard::tui_log_marks_test {
namespace {

Timestamp utc(const char* iso) {
  return *parse_iso8601(iso);
}

class TuiLogMarksTest : public ::testing::Test {
 protected:
  ManualClock clock_{apptest::kFixtureNow};
  apptest::TuiFixture fixture_{clock_};
  Store& store() { return *fixture_.ctx().store; }
  const LogMarksKey key_{kLocalAccount, "resnet-sweep", "lr-0001", "stdout.txt"};

  void mark(int64_t end_offset, const char* seen_at) {
    ASSERT_TRUE(store().add_log_mark(key_.account, key_.job, key_.task, key_.file,
                                     {end_offset, utc(seen_at)}));
  }
  LogState timed_view() {
    LogState lg;
    lg.times = true;
    lg.marks_key = key_;
    return lg;
  }
  // One read for `lg`, as the reader makes it, taken as the UI thread takes it.
  void read_into(LogState& lg) {
    LogMarksInput in;
    if (auto want = log_marks_want(lg)) in.wants.push_back(*want);
    take_log_marks(lg, read_log_marks(store(), in));
  }
  static std::vector<int64_t> offsets(const std::vector<LogMark>& marks) {
    std::vector<int64_t> out;
    for (const auto& m : marks) out.push_back(m.end_offset);
    return out;
  }
};

TEST_F(TuiLogMarksTest, AViewWithoutTimesOrWithoutMarksWantsNothing) {
  LogState lg = timed_view();
  lg.times = false;
  EXPECT_FALSE(log_marks_want(lg));
  lg.times = true;
  lg.marks_key.reset();  // a node's files
  EXPECT_FALSE(log_marks_want(lg));
}

TEST_F(TuiLogMarksTest, LaterReadsAppendOnlyTheNewerMarks) {
  mark(100, "2024-03-01T10:00:03Z");
  mark(250, "2024-03-01T10:00:41Z");
  LogState lg = timed_view();
  read_into(lg);
  EXPECT_EQ(offsets(lg.marks), (std::vector<int64_t>{100, 250}));
  // lr-0001 ended at 10:42:17 (the fixture).
  ASSERT_TRUE(lg.ended);
  EXPECT_EQ(*lg.ended, utc("2024-03-01T10:42:17Z"));

  mark(400, "2024-03-01T10:01:10Z");
  LogMarksInput in;
  in.wants.push_back(*log_marks_want(lg));
  ASSERT_TRUE(in.wants[0].last);
  EXPECT_EQ(in.wants[0].last->end_offset, 250);
  auto data = read_log_marks(store(), in);
  ASSERT_EQ(data.reads.size(), 1u);
  EXPECT_EQ(offsets(data.reads[0].marks), (std::vector<int64_t>{400}));
  take_log_marks(lg, data);
  EXPECT_EQ(offsets(lg.marks), (std::vector<int64_t>{100, 250, 400}));
  take_log_marks(lg, data);  // no longer follows the last mark held
  EXPECT_EQ(offsets(lg.marks), (std::vector<int64_t>{100, 250, 400}));
}

TEST_F(TuiLogMarksTest, MarksClearedForANewAttemptReplaceTheOldOnes) {
  mark(100, "2024-03-01T10:00:03Z");
  mark(250, "2024-03-01T10:00:41Z");
  LogState lg = timed_view();
  read_into(lg);
  ASSERT_TRUE(store().clear_log_marks(key_.account, key_.job, key_.task, key_.file));
  mark(60, "2024-03-01T11:00:00Z");
  mark(300, "2024-03-01T11:00:05Z");
  read_into(lg);
  EXPECT_EQ(offsets(lg.marks), (std::vector<int64_t>{60, 300}));
  EXPECT_EQ(lg.marks[1].seen_at, utc("2024-03-01T11:00:05Z"));
}

TEST_F(TuiLogMarksTest, AReadForAnotherFileIsNotTaken) {
  mark(100, "2024-03-01T10:00:03Z");
  LogState lg = timed_view();
  LogMarksInput in;
  in.wants.push_back(*log_marks_want(lg));
  auto data = read_log_marks(store(), in);
  lg.marks_key->file = "stderr.txt";  // e: the view now shows stderr
  take_log_marks(lg, data);
  EXPECT_TRUE(lg.marks.empty());
}

// Lines starting at 120 and 260 are dated by the marks ending at 250 and 400: the ones ending
// past each start, and nothing before the first or after the second.
TEST_F(TuiLogMarksTest, TheMarksCoveringLinesAreThoseEndingPastTheirStarts) {
  std::vector<LogMark> marks;
  for (int64_t end : {100, 250, 400, 900}) marks.push_back({end, utc("2024-03-01T10:00:00Z")});
  EXPECT_EQ(offsets(marks_covering(marks, {120, 200, 260})), (std::vector<int64_t>{250, 400}));
  EXPECT_EQ(offsets(marks_covering(marks, {0, 99})), (std::vector<int64_t>{100}));
  EXPECT_EQ(offsets(marks_covering(marks, {100})), (std::vector<int64_t>{250}));
  EXPECT_TRUE(marks_covering(marks, {900, 1000}).empty());
  EXPECT_TRUE(marks_covering(marks, {}).empty());
}

}  // namespace
}  // namespace trainyard::tui_log_marks_test
