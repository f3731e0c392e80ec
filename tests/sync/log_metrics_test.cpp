// LogMetricsFollower: offsets, progress records split on \r, growth, replacement, user patterns.
#include "sync/log_metrics.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace trainyard {
namespace {

class LogMetricsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char tmpl[] = "/tmp/trainyard-metrics-XXXXXX";
    dir_ = mkdtemp(tmpl);
    auto s = Store::open(":memory:");
    ASSERT_TRUE(s.ok());
    store_ = std::move(*s);
    path_ = dir_ + "/stdout.txt";
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  void append(const std::string& text) {
    std::ofstream out(path_, std::ios::app | std::ios::binary);
    out << text;
  }
  std::vector<double> values(const std::string& name) {
    std::vector<double> out;
    auto pts = store_->metric_points("local", "j", "t", name);
    if (pts)
      for (const auto& p : *pts) out.push_back(p.value);
    return out;
  }
  LogMetricsFollower follower() {
    return LogMetricsFollower(*store_, "local", "j", "t", "stdout.txt", path_);
  }

  std::string dir_, path_;
  std::unique_ptr<Store> store_;
};

TEST_F(LogMetricsTest, MissingFileIsNotAnError) {
  auto f = follower();
  auto n = f.poll();
  ASSERT_TRUE(n.ok());
  EXPECT_EQ(*n, 0u);
}

TEST_F(LogMetricsTest, ReadsOnlyCompleteRecordsUntilTheFinalPass) {
  auto f = follower();
  append("loss=0.9\nloss=0.8");
  EXPECT_EQ(*f.poll(), 1u);
  EXPECT_EQ(values("loss"), (std::vector<double>{0.9}));
  append("\nloss=0.7");
  EXPECT_EQ(*f.poll(), 1u);
  EXPECT_EQ(*f.poll(true), 1u);
  EXPECT_EQ(values("loss"), (std::vector<double>{0.9, 0.8, 0.7}));
  EXPECT_EQ(*store_->log_offset("local", "j", "t", "stdout.txt"), 26);
}

TEST_F(LogMetricsTest, EveryProgressRecordCounts) {
  auto f = follower();
  append("\r 10%|#  | 1/10 [loss=0.50]\r 20%|## | 2/10 [loss=0.40]\r 30%|###| 3/10 [loss=0.30]\n");
  ASSERT_TRUE(f.poll().ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{0.5, 0.4, 0.3}));
}

TEST_F(LogMetricsTest, ResumesFromTheStoredOffset) {
  append("loss=1\n");
  ASSERT_TRUE(follower().poll().ok());
  append("loss=2\n");
  auto again = follower();  // a new supervisor after a restart
  ASSERT_TRUE(again.poll().ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{1, 2}));
}

TEST_F(LogMetricsTest, ReplacedFileStartsOver) {
  auto f = follower();
  append("loss=1\nloss=2\nloss=3\n");
  ASSERT_TRUE(f.poll().ok());
  std::filesystem::remove(path_);
  append("loss=9\n");
  ASSERT_TRUE(f.poll().ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{1, 2, 3, 9}));
}

TEST_F(LogMetricsTest, HostileBytesNeverReachTheStore) {
  auto f = follower();
  append("\x1b]0;title\x07loss=0.25 \x1b[31macc=0.5\x1b[0m\n");
  ASSERT_TRUE(f.poll().ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{0.25}));
  EXPECT_EQ(values("acc"), (std::vector<double>{0.5}));
}

TEST_F(LogMetricsTest, UserPatterns) {
  auto f = follower();
  ASSERT_TRUE(f.add_patterns({{"bleu", "BLEU = ([0-9.]+)"}}).ok());
  EXPECT_FALSE(f.add_patterns({{"bad", "([0-9"}}).ok());
  append("BLEU = 27.3, 58.1/33.0\n");
  ASSERT_TRUE(f.poll().ok());
  EXPECT_EQ(values("bleu"), (std::vector<double>{27.3}));
}

}  // namespace
}  // namespace trainyard
