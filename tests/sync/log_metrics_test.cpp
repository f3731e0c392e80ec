// LogMetricsFollower: offsets, progress records split on \r, growth, replacement, user patterns.
#include "sync/log_metrics.hpp"

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

namespace trainyard::log_metrics_test {
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

// The first `loss=0.9` is held as a parameter until a second `loss` shows it is a metric.
TEST_F(LogMetricsTest, ReadsOnlyCompleteRecordsUntilTheFinalPass) {
  auto f = follower();
  append("loss=0.9\nloss=0.8");
  EXPECT_EQ(*f.poll(), 0u);
  EXPECT_EQ(*store_->output_parameters("local", "j", "t"),
            (std::vector<NameValue>{{"loss", "0.9"}}));
  append("\nloss=0.7");
  EXPECT_EQ(*f.poll(), 2u);
  EXPECT_TRUE(store_->output_parameters("local", "j", "t")->empty());
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
  append("loss=1\nloss=2\n");
  ASSERT_TRUE(follower().poll().ok());
  append("loss=3\n");
  auto again = follower();  // a new supervisor after a restart
  ASSERT_TRUE(again.poll().ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{1, 2, 3}));
  auto pts = store_->metric_points("local", "j", "t", "loss");
  EXPECT_EQ(pts->back().step, 3);  // the line count goes on too
}

// A file replaced by another (a retry's) is a new attempt: its points are kept apart.
// A reader that stopped after the first `loss=0.9` (a `logs` call while the task ran) held it in
// memory only; the next reader reads the prelude again, so the series keeps its first point.
TEST_F(LogMetricsTest, ResumingInsideThePreludeKeepsTheHeldValues) {
  append("lr=0.1\nloss=0.9\n");
  ASSERT_TRUE(follower().poll().ok());
  EXPECT_TRUE(values("loss").empty());
  append("loss=0.5\nloss=0.25\n");
  ASSERT_TRUE(follower().poll(true).ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{0.9, 0.5, 0.25}));
  EXPECT_EQ(*store_->output_parameters("local", "j", "t"), (std::vector<NameValue>{{"lr", "0.1"}}));
  EXPECT_EQ(*store_->log_offset("local", "j", "t", "stdout.txt"), 35);
}

// A Hugging Face dict gives its own position: the epoch it prints, not the count of records (the
// evaluation dict would otherwise sit at x 3 of a curve whose training points are at 1 and 2).
TEST_F(LogMetricsTest, AHuggingFaceDictIsPlacedAtItsEpoch) {
  append(
      "{'loss': 0.6, 'learning_rate': 4e-05, 'epoch': 0.5}\n"
      "{'loss': 0.4, 'learning_rate': 3e-05, 'epoch': 1.0}\n"
      "{'eval_loss': 0.35, 'epoch': 1.0}\n"
      "{'loss': 0.3, 'step': 40, 'epoch': 1.5}\n");
  ASSERT_TRUE(follower().poll(true).ok());
  auto loss = store_->metric_points("local", "j", "t", "loss");
  ASSERT_TRUE(loss.ok());
  std::vector<double> xs;
  for (const auto& p : *loss) xs.push_back(p.step);
  EXPECT_EQ(xs, (std::vector<double>{0.5, 1.0, 40}));
  auto eval = store_->metric_points("local", "j", "t", "eval_loss");
  ASSERT_TRUE(eval.ok());
  ASSERT_EQ(eval->size(), 1u);
  EXPECT_EQ(eval->front().step, 1.0);
}

TEST_F(LogMetricsTest, ReplacedFileIsANewAttempt) {
  auto f = follower();
  append("loss=1\nloss=2\nloss=3\n");
  ASSERT_TRUE(f.poll().ok());
  std::filesystem::rename(path_, dir_ + "/stdout.attempt-0.txt");
  append("loss=9\nloss=8\n");
  ASSERT_TRUE(f.poll().ok());
  auto pts = store_->metric_points("local", "j", "t", "loss");
  std::vector<std::pair<int, double>> got;
  for (const auto& p : *pts) got.emplace_back(p.attempt, p.value);
  EXPECT_EQ(got, (std::vector<std::pair<int, double>>{{0, 1}, {0, 2}, {0, 3}, {1, 9}, {1, 8}}));
  EXPECT_EQ(f.attempt(), 1);
}

// Every chunk stored dates the bytes before its end; a line is dated by the first mark past
// its start. A file that starts over loses the old file's marks.
TEST_F(LogMetricsTest, EachChunkLeavesAReadMarkAndAReplacedFileStartsThemOver) {
  auto f = follower();
  auto before = SystemClock().now();
  append("epoch 1\nloss=2\npartial");
  ASSERT_TRUE(f.poll().ok());
  append(" line\n");
  ASSERT_TRUE(f.poll().ok());
  auto after = SystemClock().now();
  auto marks = store_->log_marks("local", "j", "t", "stdout.txt", -1, 10);
  ASSERT_TRUE(marks.ok()) << marks.error().message;
  ASSERT_EQ(marks->size(), 2u);
  EXPECT_EQ((*marks)[0].end_offset, 15);  // "epoch 1\nloss=2\n": the partial record waits
  EXPECT_EQ((*marks)[1].end_offset, 28);
  for (const auto& m : *marks) {
    EXPECT_GE(m.seen_at, before);
    EXPECT_LE(m.seen_at, after);
  }
  ASSERT_TRUE(f.poll().ok());  // nothing new: no mark
  EXPECT_EQ(store_->log_marks("local", "j", "t", "stdout.txt", -1, 10)->size(), 2u);
  std::filesystem::rename(path_, dir_ + "/stdout.attempt-0.txt");
  append("retry\n");
  ASSERT_TRUE(f.poll().ok());
  marks = store_->log_marks("local", "j", "t", "stdout.txt", -1, 10);
  ASSERT_EQ(marks->size(), 1u);
  EXPECT_EQ((*marks)[0].end_offset, 6);
}

// A local run's supervisor raises the stored attempt before the next attempt prints.
TEST_F(LogMetricsTest, TheStoredAttemptStartsANewAttempt) {
  LocalRun run;
  run.job = "j";
  run.task = "t";
  ASSERT_TRUE(store_->upsert_local_run(run).ok());
  auto f = follower();
  append("step=1 loss=1\nstep=2 loss=0.5\n");
  ASSERT_TRUE(f.poll().ok());
  run.attempt = 1;
  ASSERT_TRUE(store_->upsert_local_run(run).ok());
  append("step=1 loss=1.4\n");
  ASSERT_TRUE(f.poll().ok());
  auto pts = store_->metric_points("local", "j", "t", "loss");
  ASSERT_EQ(pts->size(), 3u);
  EXPECT_EQ((*pts)[1].attempt, 0);
  EXPECT_EQ((*pts)[2].attempt, 1);
  EXPECT_EQ((*pts)[2].step, 1);
}

TEST_F(LogMetricsTest, HostileBytesNeverReachTheStore) {
  auto f = follower();
  append("\x1b]0;title\x07loss=0.25 \x1b[31macc=0.5\x1b[0m epoch=1\n");
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

// A run that printed fast and exited: the final pass reads everything, however much is left.
TEST_F(LogMetricsTest, FinalPassReadsToTheEnd) {
  std::string text;
  for (int i = 1; i <= 200000; ++i)
    text += "loss=" + std::to_string(i) + " | training the model, printing quickly and a lot\n";
  append(text);
  auto f = follower();
  ASSERT_TRUE(f.poll().ok());  // one read while it ran
  ASSERT_TRUE(f.poll(true).ok());
  auto loss = values("loss");
  ASSERT_EQ(loss.size(), 200000u);
  EXPECT_EQ(loss.front(), 1);
  EXPECT_EQ(loss.back(), 200000);
}

// Keras prints epochs on stdout while tqdm draws on stderr: two series, each with its own steps.
TEST_F(LogMetricsTest, StdoutAndStderrAreSeparateSeries) {
  append("Epoch 1/2\n10/10 - loss: 0.5\nEpoch 2/2\n10/10 - loss: 0.4\n");
  std::ofstream(dir_ + "/stderr.txt", std::ios::binary)
      << "\r 50%|#  | 1/2 [loss=0.9]\r100%|## | 2/2 [loss=0.8]\n";
  auto out = follower();
  LogMetricsFollower err(*store_, "local", "j", "t", "stderr.txt", dir_ + "/stderr.txt");
  ASSERT_TRUE(out.poll(true).ok());
  ASSERT_TRUE(err.poll(true).ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{0.5, 0.4}));
  auto err_loss = store_->metric_points("local", "j", "t", "loss", "stderr");
  ASSERT_EQ(err_loss->size(), 2u);
  EXPECT_EQ((*err_loss)[0].value, 0.9);
  EXPECT_EQ((*err_loss)[0].step, 1);
  EXPECT_EQ((*err_loss)[1].value, 0.8);
  EXPECT_EQ((*err_loss)[1].step, 2);
  // The tables read stdout's: it has the epoch lines.
  auto table = store_->table_metrics("local", "j", "t");
  EXPECT_EQ(table->stream, "stdout");
  EXPECT_EQ(table->names, (std::vector<std::string>{"loss"}));
}

// A value printed once before any step or epoch is configuration, not a metric.
TEST_F(LogMetricsTest, ConfigurationPrintedOnceIsNotAMetric) {
  append("lr=0.01\nbatch: 64\nEpoch 1/2\nloss: 0.5\nEpoch 2/2\nloss: 0.4\n");
  ASSERT_TRUE(follower().poll(true).ok());
  EXPECT_EQ(*store_->metric_names("local", "j", "t"), (std::vector<std::string>{"loss"}));
  EXPECT_EQ(*store_->output_parameters("local", "j", "t"),
            (std::vector<NameValue>{{"lr", "0.01"}, {"batch", "64"}}));
}

// A log without positions: a name printed again is a metric from its first line on; what came
// before that line stays configuration.
TEST_F(LogMetricsTest, ANamePrintedAgainIsAMetricFromItsFirstLine) {
  append("Namespace(lr=0.01, seed=3)\nloss=0.9 acc=0.5\nloss=0.8 acc=0.6\ntest_acc=0.7\n");
  ASSERT_TRUE(follower().poll(true).ok());
  EXPECT_EQ(values("loss"), (std::vector<double>{0.9, 0.8}));
  EXPECT_EQ(values("acc"), (std::vector<double>{0.5, 0.6}));
  EXPECT_EQ(values("test_acc"), (std::vector<double>{0.7}));
  EXPECT_EQ(*store_->output_parameters("local", "j", "t"),
            (std::vector<NameValue>{{"lr", "0.01"}, {"seed", "3"}}));
}

}  // namespace
}  // namespace trainyard::log_metrics_test
